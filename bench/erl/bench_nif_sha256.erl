-module(bench_nif_sha256).
%% group: nif
-export([run/0]).
%% crypto.so throughput: sha256 over a 1 MiB binary, 50 times (OTP's crypto NIF, unmodified).
run() ->
    Bin = binary:copy(<<"0123456789abcdef">>, 65536),
    lists:foldl(fun(_, _) -> crypto:hash(sha256, Bin) end, <<>>, lists:seq(1, 50)).
