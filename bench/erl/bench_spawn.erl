-module(bench_spawn).
%% group: concurrency
-export([run/0]).
%% Parallel spawn: 8 spawners each start 20000 short-lived children (one message back each).
run() ->
    S = 8, C = 20000, Self = self(),
    [spawn(fun() -> spawner(Self, C) end) || _ <- lists:seq(1, S)],
    [receive spawner_done -> ok end || _ <- lists:seq(1, S)],
    ok.
spawner(Parent, C) ->
    Me = self(),
    [spawn(fun() -> Me ! child_done end) || _ <- lists:seq(1, C)],
    [receive child_done -> ok end || _ <- lists:seq(1, C)],
    Parent ! spawner_done.
