-module(bench_sort).
-export([run/0]).
%% group: sequential
run() ->
    rand:seed(exsss, {1, 2, 3}),
    L = [rand:uniform(1000000) || _ <- lists:seq(1, 200000)],
    S = lists:sort(L),
    length(S) + length(lists:usort(L)).
