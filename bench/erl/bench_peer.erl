%% Helpers for the workloads that run against a peer node (`%% peer: true`): bench/run starts the
%% peer (same VM kind) and passes its name in BENCH_PEER. Not a workload itself.
-module(bench_peer).
-export([node/0, echo/0, sink/1]).

node() ->
    Peer = list_to_atom(os:getenv("BENCH_PEER")),
    wait(Peer, 300),
    Peer.

wait(Peer, 0) -> error({peer_down, Peer});
wait(Peer, N) ->
    %% Reachable is not enough: the peer may still be booting (its code path not set up yet).
    case net_adm:ping(Peer) =:= pong andalso rpc:call(Peer, code, ensure_loaded, [?MODULE]) of
        {module, ?MODULE} -> ok;
        _ -> timer:sleep(100), wait(Peer, N - 1)
    end.

echo() ->
    receive
        {From, M} -> From ! M, echo();
        stop -> ok
    end.

sink(To) -> sink(To, 0).

sink(To, N) ->
    receive
        done -> To ! {sunk, N};
        _ -> sink(To, N + 1)
    end.
