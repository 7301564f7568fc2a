-module(bench_ring).
-export([run/0]).
%% group: concurrency
%% Process ring: spawn 1000 processes in a ring, pass a token around it 100 times (100000 hops),
%% then let the ring wind down.
run() ->
    N = 1000, Rounds = 100,
    Self = self(),
    %% The last process spawned forwards to Self, which closes the ring by forwarding to First.
    First = lists:foldl(fun(_, Next) -> spawn(fun() -> relay(Next) end) end, Self, lists:seq(1, N)),
    First ! {token, Rounds - 1},
    ring(First).
%% Self counts the rounds.
ring(First) ->
    receive
        {token, 0} -> First ! stop, receive stop -> ok end;
        {token, K} -> First ! {token, K - 1}, ring(First)
    end.
relay(Next) ->
    receive
        {token, _} = T -> Next ! T, relay(Next);
        stop -> Next ! stop
    end.
