-module(bench_tailfun).
-export([run/0]).
%% group: sequential
%% Fun calls in tail position (continuation-passing style, state machines whose next state is a
%% fun): 3M calls alternating between two functions, each calling the other through a fun value.
run() -> even(3000000, {fun even/3, fun odd/3}, 0).
even(0, _, Acc) -> Acc;
even(N, {_, Odd} = S, Acc) -> Odd(N - 1, S, Acc + 1).
odd(0, _, Acc) -> Acc;
odd(N, {Even, _} = S, Acc) -> Even(N - 1, S, Acc + 2).
