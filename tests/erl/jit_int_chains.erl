-module(jit_int_chains).
%% Runs of integer BIFs whose intermediate results are overwritten (erlc reuses the register),
%% which the bytecode tier computes in long locals (ADR 0071): results at the 64-bit boundaries
%% (overflow into bignums at each step), floats and non-numbers part-way, zero divisors, shifts
%% out of range and guard BIFs with a fail label must be erl's, cold and hot alike.
-export([main/0]).

-define(M58, 16#3ffffffffffffff).

p(X) -> io:format("~p~n", [X]).

t(F) -> try F() catch error:E -> {error, E} end.

%% rand's exsss step
mix(S1, S0) ->
    S0_1 = S0 band ?M58,
    S1_b = S1 bxor ((S1 band ((1 bsl 34) - 1)) bsl 24),
    NewS1 = S1_b bxor S0_1 bxor (S1_b bsr 11) bxor ((S0_1 band ((1 bsl 32) - 1)) bsl 26),
    {S0_1, NewS1 band ?M58}.

poly(X, Y) -> ((X * 31 + Y) * 17 - X) rem 1000003.
wide(X, Y) -> (X * Y + X) - Y * 3.
divs(X, Y) -> ((X div Y) + (X rem Y)) * 2.
shifts(X, N) -> ((X bsl N) bsr 1) bor (X band 7).
negs(X, Y) -> ((X - Y) - Y) - 9223372036854775807.
masks(X, Y) -> ((X bor Y) bxor (X band Y)) band (Y bsr 2).

%% operands in y registers (kept across a call), results going on into a tuple and a call
id(X) -> X.
ych(X, Y) -> Z = id(X), W = ((Z band Y) bsl 3 + Y) rem 1000 - Z * 2, {id(W), Z, Y, (W bxor Z) bsr 2 + Y}.

guarded(X) when ((X band 255) bsl 2) + 1 > 100 -> big;
guarded(_) -> small.

guarded2(X, Y) when (X * Y + 1) rem 7 =:= 3 -> three;
guarded2(_, _) -> other.

values() ->
    [0, 1, -1, 7, 255, -256, 1023, 1024, 3000000, -3000000, 16#5DEECE66D,
     (1 bsl 31) - 1, (1 bsl 32) + 5, (1 bsl 58) - 1, 1 bsl 59, -(1 bsl 59), (1 bsl 62) + 3,
     (1 bsl 63) - 1, -(1 bsl 63), -(1 bsl 63) + 1, 1 bsl 63, 1 bsl 70, -(1 bsl 70), 1.5, -2.0, a].

shiftsBy() -> [0, 1, 2, 30, 61, 62, 63, 64, -1, -70, 200, 1.0, x].

all() ->
    Vs = values(),
    [[t(fun() -> mix(A, B) end) || A <- Vs, B <- Vs],
     [t(fun() -> poly(A, B) end) || A <- Vs, B <- Vs],
     [t(fun() -> wide(A, B) end) || A <- Vs, B <- Vs],
     [t(fun() -> divs(A, B) end) || A <- Vs, B <- Vs],
     [t(fun() -> shifts(A, N) end) || A <- Vs, N <- shiftsBy()],
     [t(fun() -> negs(A, B) end) || A <- Vs, B <- Vs],
     [t(fun() -> masks(A, B) end) || A <- Vs, B <- Vs],
     [t(fun() -> ych(A, B) end) || A <- Vs, B <- Vs],
     [guarded(A) || A <- Vs],
     [guarded2(A, B) || A <- Vs, B <- Vs]].

rounds(0, S) -> S;
rounds(N, {S1, S0}) -> rounds(N - 1, mix(S0 + N, S1)).

warm(0, Acc) -> Acc;
warm(N, Acc) ->
    A = poly(N, Acc) + wide(N, 3) + divs(N, 7) + shifts(N, N rem 9) + negs(N, 2) + masks(N, Acc),
    _ = ych(N, Acc),
    B = case {guarded(N), guarded2(N, Acc)} of {big, three} -> 1; {big, _} -> 2; {_, three} -> 3; _ -> 4 end,
    warm(N - 1, (A + B) rem 1000000007).

main() ->
    Cold = all(),
    p(Cold),
    p(rounds(1000, {1, 2})),
    p(warm(60000, 0)),
    p(rounds(300000, {12345, 67890})),
    Hot = all(),
    p(Hot =:= Cold),
    p(Hot),
    ok.
