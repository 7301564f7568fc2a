%% Distribution throughput workload (ADR 0064), run by bench/dist/run on a main node against a
%% peer node running peer/0. Each figure is printed as "name: value" on one line:
%%   rt     N sequential round trips of a 1 MiB binary to an echo process on the peer (MB/s each way)
%%   out    K 1 MiB messages streamed to the peer, acknowledged after the last (MB/s main -> peer)
%%   in     the peer streams K 1 MiB messages here (MB/s peer -> main)
%%   small  S small messages pipelined to the echo process and back (round trips per second)
%% and, per phase, each node's CPU time in ms (statistics(runtime): all threads of the VM, so JIT
%% compilation and GC count too): on a shared machine the CPU figures move less than the wall times.
-module(dist_tput).
-export([main/1, peer/0]).

-define(MIB, 1048576).

peer() ->
    register(echo, spawn(fun echo/0)),
    register(sink, spawn(fun() -> sink(0) end)),
    io:format("ready~n").

echo() ->
    receive
        {From, M} -> From ! {echo, M}, echo();
        {stream, From, K, Bin} -> [From ! {data, Bin} || _ <- lists:seq(1, K)], From ! done, echo()
    end.

sink(N) ->
    receive
        {data, _} -> sink(N + 1);
        {count, From} -> From ! {count, N}, sink(0)
    end.

main([PeerS | Args]) ->
    Peer = list_to_atom(PeerS),
    [N, K, S, Warm] = [list_to_integer(A) || A <- Args ++ lists:nthtail(length(Args), ["100", "200", "20000", "30"])],
    pong = net_adm:ping(Peer),
    Bin = binary:copy(<<"0123456789abcdef">>, ?MIB div 16),
    Echo = {echo, Peer},
    roundtrips(Echo, Bin, Warm),
    stream_out(Peer, Bin, Warm),
    stream_in(Echo, Bin, Warm),
    phase(rt, Peer, N * 1.048576, fun() -> roundtrips(Echo, Bin, N) end),
    phase(out, Peer, K * 1.048576, fun() -> stream_out(Peer, Bin, K) end),
    phase(in, Peer, K * 1.048576, fun() -> stream_in(Echo, Bin, K) end),
    phase(small, Peer, S, fun() -> small(Echo, S) end).

%% One timed phase: its rate (MB/s, or round trips/s for small) and both nodes' CPU ms.
phase(Name, Peer, Units, F) ->
    {M0, P0} = cpu(Peer),
    {T, ok} = timer:tc(F),
    {M1, P1} = cpu(Peer),
    io:format("~p: ~.1f cpu_main ~p cpu_peer ~p~n", [Name, Units * 1.0e6 / T, M1 - M0, P1 - P0]).

cpu(Peer) ->
    {Main, _} = statistics(runtime),
    {PeerCpu, _} = rpc:call(Peer, erlang, statistics, [runtime]),
    {Main, PeerCpu}.

roundtrips(_, _, 0) -> ok;
roundtrips(Echo, Bin, N) ->
    Echo ! {self(), Bin},
    receive {echo, B} when byte_size(B) =:= ?MIB -> roundtrips(Echo, Bin, N - 1) end.

stream_out(Peer, Bin, K) ->
    [{sink, Peer} ! {data, Bin} || _ <- lists:seq(1, K)],
    {sink, Peer} ! {count, self()},
    receive {count, K} -> ok end.

stream_in(Echo, Bin, K) ->
    Echo ! {stream, self(), K, Bin},
    stream_in_wait(K).

stream_in_wait(0) -> receive done -> ok end;
stream_in_wait(K) -> receive {data, B} when byte_size(B) =:= ?MIB -> stream_in_wait(K - 1) end.

small(Echo, S) ->
    Me = self(),
    [Echo ! {Me, I} || I <- lists:seq(1, S)],
    small_wait(S).

small_wait(0) -> ok;
small_wait(S) -> receive {echo, _} -> small_wait(S - 1) end.
