-module(bench_os_cmd).
%% group: io
-export([run/0]).
%% External program ports: 100 os:cmd("echo hi") calls (a shell per call, as OTP's os:cmd does),
%% then one port to cat streaming 8 MiB through in 64 KiB binaries and back.
run() ->
    [ "hi\n" = os:cmd("echo hi") || _ <- lists:seq(1, 100)],
    P = open_port({spawn, "cat"}, [binary, stream]),
    Chunk = binary:copy(<<"x">>, 65536),
    N = 128,
    [port_command(P, Chunk) || _ <- lists:seq(1, N)],
    drain(P, N * 65536),
    port_close(P),
    ok.
drain(_P, 0) -> ok;
drain(P, Left) -> receive {P, {data, D}} -> drain(P, Left - byte_size(D)) end.
