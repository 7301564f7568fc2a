-module(bench_maps).
-export([run/0]).
%% group: sequential
run() ->
    M = lists:foldl(fun(I, Acc) -> Acc#{I rem 32 => I} end, #{}, lists:seq(1, 300000)),
    lists:foldl(fun(I, S) -> S + maps:get(I rem 32, M) end, 0, lists:seq(1, 300000)).
