-module(jit_literal_arith).
%% Arithmetic with a literal integer as the second operand in hot (compiled) code: the bytecode
%% tier passes the literal as a constant (ADR 0059). Results at the 64-bit boundaries (overflow to
%% bignums), negative divisors, floats, division by a literal zero or -1 and non-numbers must be
%% erl's, cold and hot alike.
-export([main/0]).

p(X) -> io:format("~p~n", [X]).

ops(X) ->
    [t(fun() -> X + 7 end), t(fun() -> X - 7 end), t(fun() -> X + -1 end), t(fun() -> X - -9223372036854775808 end),
     t(fun() -> X rem 256 end), t(fun() -> X rem -7 end), t(fun() -> X rem 1 end),
     t(fun() -> X div 3 end), t(fun() -> X div -1 end), t(fun() -> X div 256 end),
     t(fun() -> X band 255 end), t(fun() -> X band -256 end),
     t(fun() -> X bsr 3 end), t(fun() -> X bsr 63 end), t(fun() -> X bsr 64 end), t(fun() -> X bsr 70 end)].

%% the same operations as plain instructions of one function (what the loop compiles)
direct(X) when is_integer(X) ->
    {X + 7, X - 7, X rem 256, X rem -7, X div 3, X div -1, X band 255, X bsr 3, X bsr 64};
direct(X) -> {X + 7, X - 7}.

zero(X) -> X rem 0.
zerodiv(X) -> X div 0.

t(F) -> try F() catch error:E -> {error, E} end.

values() ->
    [0, 1, -1, 255, 256, -256, 1023, 1024, -257, 3000000, -3000000,
     (1 bsl 59) - 1, 1 bsl 59, -(1 bsl 59), (1 bsl 63) - 1, (1 bsl 63) - 7, -(1 bsl 63), -(1 bsl 63) + 6,
     1 bsl 63, 1 bsl 70, -(1 bsl 70), 1.5, -2.5, a].

loop(0, Acc) -> Acc;
loop(N, Acc) -> loop(N - 1, (Acc + N rem 256 + (N div 3) band 255 + N bsr 4) rem 1000003).

main() ->
    Vs = values(),
    Cold = [ops(V) || V <- Vs],
    p(Cold),
    p([t(fun() -> direct(V) end) || V <- Vs]),
    p(loop(200000, 0)),
    [direct(I) || I <- lists:seq(-20000, 20000)],
    [[direct(V) || V <- Vs, is_number(V)] || _ <- lists:seq(1, 300)],
    Hot = [ops(V) || V <- Vs],
    p(Hot =:= Cold),
    p([t(fun() -> direct(V) end) || V <- Vs]),
    p([t(fun() -> zero(V) end) || V <- [1, -1, 1.0, a]]),
    p([t(fun() -> zerodiv(V) end) || V <- [1, -1, 1.0, a]]),
    [catch zero(I) || I <- lists:seq(1, 5000)],
    p([t(fun() -> zero(V) end) || V <- [1, -1, 1.0, a]]),
    p(loop(200001, 0)),
    ok.
