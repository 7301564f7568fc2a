-module(bench_bignum).
-export([run/0]).
%% group: sequential
run() -> [fac(N) rem 1000007 || N <- lists:seq(1, 600)].
fac(0) -> 1;
fac(N) -> N * fac(N - 1).
