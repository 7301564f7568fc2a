-module(bench_mandel).
%% group: concurrency
-export([run/0]).
%% Mandelbrot workers (bencherl "mandelbrot"): one process per row of a 256x256 image, each
%% computing its row with float arithmetic and sending back the count of points in the set.
run() ->
    W = 256, H = 256, Self = self(),
    [spawn(fun() -> Self ! {row, row(Y, W, H)} end) || Y <- lists:seq(0, H - 1)],
    lists:sum([receive {row, C} -> C end || _ <- lists:seq(1, H)]).
row(Y, W, H) ->
    Ci = 2.0 * Y / H - 1.0,
    length([x || X <- lists:seq(0, W - 1), iter(2.0 * X / W - 1.5, Ci, 0.0, 0.0, 100) =:= 0]).
iter(_, _, _, _, 0) -> 0;
iter(Cr, Ci, Zr, Zi, K) ->
    Zr2 = Zr * Zr, Zi2 = Zi * Zi,
    if Zr2 + Zi2 > 4.0 -> K;
       true -> iter(Cr, Ci, Zr2 - Zi2 + Cr, 2.0 * Zr * Zi + Ci, K - 1)
    end.
