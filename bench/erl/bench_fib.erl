-module(bench_fib).
-export([run/0]).
%% group: sequential
run() -> fib(27).
fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).
