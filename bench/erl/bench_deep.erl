-module(bench_deep).
-export([run/0]).
%% group: sequential
run() -> len(lists:map(fun(X) -> X + 1 end, lists:seq(1, 1000000))).
len([]) -> 0;
len([_ | T]) -> 1 + len(T).
