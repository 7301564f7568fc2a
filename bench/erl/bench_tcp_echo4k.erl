-module(bench_tcp_echo4k).
%% group: io
-export([run/0]).
%% Issue 4's TCP echo shape: 50 connections x 4,000 round trips of 64 bytes, passive mode, on loopback.
%% Seconds long, so one warm-up and two timed runs (bench_tcp_echo is the quick 50 x 200 variant).
-bench_runs([1, 2]).
run() -> bench_tcp_echo:run(50, 4000).
