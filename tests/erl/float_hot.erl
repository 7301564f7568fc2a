-module(float_hot).
-export([main/0]).
%% Float +, -, * and < in hot code (compiled by the bytecode tier after enough calls): the
%% float/float fast paths must give erl's results, including overflow (badarith, or a failing
%% guard) and signed zeros.
main() ->
    Pairs = [{1.5, 2.25}, {-0.0, 0.0}, {0.0, -0.0}, {1.0e308, 1.0e308}, {-1.0e308, 1.0e308},
             {3.0, 3.0}, {1.0e-320, 1.0e-320}, {2.0, -7.5}, {1.0e200, 1.0e200}],
    R = lists:last([[calc(A, B) || {A, B} <- Pairs] || _ <- lists:seq(1, 3000)]),
    [io:format("~p~n", [X]) || X <- R],
    io:format("mandel ~p~n", [lists:sum([iter(X / 16 - 1.5, Y / 16 - 1.0, 0.0, 0.0, 50)
                                         || X <- lists:seq(0, 31), Y <- lists:seq(0, 31)])]).

calc(A, B) ->
    {guard(A, B), safe(fun() -> A + B end), safe(fun() -> A - B end), safe(fun() -> A * B end),
     A < B, B < A, safe(fun() -> A + B < 4.0 end)}.

guard(A, B) when A * B > 1.0 -> big;
guard(A, B) when A + B < 4.0, A - B < 1.0 -> small;
guard(_, _) -> other.

safe(F) -> try F() catch error:E -> E end.

iter(_, _, _, _, 0) -> 0;
iter(Cr, Ci, Zr, Zi, K) ->
    Zr2 = Zr * Zr, Zi2 = Zi * Zi,
    if Zr2 + Zi2 > 4.0 -> K;
       true -> iter(Cr, Ci, Zr2 - Zi2 + Cr, 2.0 * Zr * Zi + Ci, K - 1)
    end.
