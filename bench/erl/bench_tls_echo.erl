-module(bench_tls_echo).
-export([run/0]).
%% group: io
%% TLS 1.3 echo through OTP's ssl (gen_statem connection processes over gen_tcp, AES-GCM records
%% in crypto.so): 4 connections x 1,000 round trips of 1 KiB, passive mode. The handshakes are
%% made once per VM (the first call), so the figure is the data path.
-bench_runs([3, 3]).
run() ->
    {Port, Clients} = setup(),
    Self = self(),
    Payload = binary:copy(<<"0123456789abcdef">>, 64),
    [spawn_link(fun() -> echo_rounds(C, Payload, 1000), Self ! {done, C} end) || C <- Clients],
    [receive {done, C} -> ok end || C <- Clients],
    Port.

setup() ->
    case get(bench_tls) of
        undefined ->
            {ok, _} = application:ensure_all_started(ssl),
            #{server_config := SC, client_config := CC} =
                public_key:pkix_test_data(#{server_chain => #{root => [{key, {namedCurve, secp256r1}}],
                                                              peer => [{key, {namedCurve, secp256r1}}]},
                                            client_chain => #{root => [{key, {namedCurve, secp256r1}}],
                                                              peer => [{key, {namedCurve, secp256r1}}]}}),
            {ok, LS} = ssl:listen(0, [binary, {active, false}, {reuseaddr, true}, {versions, ['tlsv1.3']} | SC]),
            {ok, {_, Port}} = ssl:sockname(LS),
            spawn(fun() -> acceptor(LS) end),
            Clients = [begin
                           {ok, C} = ssl:connect("localhost", Port, [binary, {active, false}, {verify, verify_peer},
                                                                     {versions, ['tlsv1.3']},
                                                                     {server_name_indication, disable} | CC], 5000),
                           C
                       end || _ <- lists:seq(1, 4)],
            put(bench_tls, {Port, Clients}),
            {Port, Clients};
        S -> S
    end.

acceptor(LS) ->
    {ok, T} = ssl:transport_accept(LS),
    {ok, S} = ssl:handshake(T, 5000),
    Pid = spawn(fun() -> receive go -> echo(S) end end),
    ok = ssl:controlling_process(S, Pid),
    Pid ! go,
    acceptor(LS).

echo(S) ->
    case ssl:recv(S, 0) of
        {ok, D} -> ok = ssl:send(S, D), echo(S);
        _ -> ok
    end.

echo_rounds(_, _, 0) -> ok;
echo_rounds(C, P, N) ->
    ok = ssl:send(C, P),
    recv_n(C, byte_size(P)),
    echo_rounds(C, P, N - 1).

recv_n(_, 0) -> ok;
recv_n(C, N) -> {ok, D} = ssl:recv(C, 0), recv_n(C, N - byte_size(D)).
