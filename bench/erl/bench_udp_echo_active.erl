-module(bench_udp_echo_active).
-export([run/0]).
%% group: io
%% bench_udp_echo in {active, once} mode: 20 pairs x 2,000 round trips of 64-byte datagrams on loopback.
-bench_runs([2, 3]).
run() -> bench_udp_echo:run(20, 2000, active).
