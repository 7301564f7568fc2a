%% group: dist
%% peer: true
%% Throughput to a peer node of the same kind: 8 senders each stream 20,000 small tuples and
%% 200 binaries of 64 KiB to their own receiver there, which acknowledges the end of its stream.
-module(bench_dist_bulk).
-export([run/0]).
-bench_runs([3, 5]).

run() ->
    Peer = bench_peer:node(),
    Me = self(),
    Bin = binary:copy(<<7>>, 65536),
    Senders = [spawn_link(fun() ->
                   Sink = spawn(Peer, bench_peer, sink, [Me]),
                   [Sink ! {msg, I, [a, b], 3.5} || I <- lists:seq(1, 20000)],
                   [Sink ! {bin, Bin} || _ <- lists:seq(1, 200)],
                   Sink ! done
               end) || _ <- lists:seq(1, 8)],
    [receive {sunk, N} when N =:= 20200 -> ok end || _ <- Senders],
    ok.
