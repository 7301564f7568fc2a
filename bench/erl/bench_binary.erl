-module(bench_binary).
-export([run/0]).
%% group: sequential
run() ->
    B = build(100000, <<>>),
    sum(B, 0).
build(0, Acc) -> Acc;
build(N, Acc) -> build(N - 1, <<Acc/binary, (N rem 256):8, N:16>>).
sum(<<A:8, B:16, Rest/binary>>, S) -> sum(Rest, S + A + B);
sum(<<>>, S) -> S.
