-module(bench_ring).
-export([run/0]).
%% group: concurrency
%% Process ring: spawn 1000 processes, pass a token around 100 times.
run() ->
    N = 1000, Rounds = 100,
    Self = self(),
    First = lists:foldl(fun(_, Next) -> spawn(fun() -> relay(Next) end) end, Self, lists:seq(1, N)),
    First ! {token, N * Rounds},
    receive {token, _} -> ok end,
    wait_done(First, N * Rounds).
relay(Next) ->
    receive
        {token, 0} -> Next ! {token, 0}, relay_end(Next);
        {token, K} -> Next ! {token, K - 1}, relay(Next)
    end.
relay_end(_) -> ok.
wait_done(_, _) -> ok.
