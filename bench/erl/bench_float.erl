-module(bench_float).
-export([run/0]).
%% group: sequential
%% Float loop: numeric integration of sin over many steps.
run() -> loop(0, 2000000, 0.0, 1.0e-6).
loop(N, N, Acc, _) -> Acc;
loop(I, N, Acc, H) -> X = I * H, loop(I + 1, N, Acc + math:sin(X) * H + X * X * 0.5, H).
