%% group: dist
%% peer: true
%% 20,000 sequential round trips of a small message to a process on a peer node of the same kind
%% (erl↔erl against jbeam↔jbeam): distribution latency.
-module(bench_dist_ping).
-export([run/0]).
-bench_runs([3, 5]).

run() ->
    Peer = bench_peer:node(),
    Echo = spawn(Peer, bench_peer, echo, []),
    Me = self(),
    lists:foreach(fun(I) -> Echo ! {Me, I}, receive I -> ok end end, lists:seq(1, 20000)),
    Echo ! stop,
    ok.
