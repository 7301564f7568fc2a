-module(bench_big).
%% group: concurrency
-export([run/0]).
%% All-to-all (bencherl "big"): 200 processes each send a ping to every other one and answer
%% every ping they receive with a pong; done when each has all its pongs.
run() ->
    N = 200, Self = self(),
    Ps = [spawn(fun() -> worker(Self) end) || _ <- lists:seq(1, N)],
    [P ! {peers, Ps} || P <- Ps],
    [receive {done, P} -> ok end || P <- Ps],
    ok.
worker(Parent) ->
    receive {peers, Ps} -> ok end,
    Me = self(),
    Others = [P || P <- Ps, P =/= Me],
    [P ! {ping, Me} || P <- Others],
    loop(Parent, length(Others), length(Others)).
%% Pings still to answer, pongs still to get.
loop(Parent, 0, 0) -> Parent ! {done, self()};
loop(Parent, Pings, Pongs) ->
    receive
        {ping, From} -> From ! pong, loop(Parent, Pings - 1, Pongs);
        pong -> loop(Parent, Pings, Pongs - 1)
    end.
