-module(ssl_loopback).
-export([main/0]).
%% OTP's ssl on top of gen_tcp and crypto.so: a TLS 1.2 and a TLS 1.3 connection on loopback with
%% certificates made by public_key:pkix_test_data/1, passive and active receives, the negotiated
%% parameters, a verified client, and a close seen by the peer. (crypto:supports() must list the
%% hashes and ciphers: with NIF atoms lacking erts' tag bit, it listed none and ssl:listen looped.)
main() ->
    {ok, _} = application:ensure_all_started(ssl),
    Key = [{key, {namedCurve, secp256r1}}],
    #{server_config := SConf, client_config := CConf} =
        public_key:pkix_test_data(#{server_chain => #{root => Key, intermediates => [], peer => Key},
                                    client_chain => #{root => Key, intermediates => [], peer => Key}}),
    io:format("~p~n", [[{K, length(V) > 0} || {K, V} <- crypto:supports()]]),
    [session(V, SConf, CConf) || V <- ['tlsv1.2', 'tlsv1.3']],
    ok.

session(Version, SConf, CConf) ->
    {ok, L} = ssl:listen(0, [binary, {active, false}, {reuseaddr, true}, {versions, [Version]},
                             {verify, verify_peer}, {fail_if_no_peer_cert, true} | SConf]),
    {ok, {_, Port}} = ssl:sockname(L),
    Self = self(),
    spawn_link(fun() ->
        {ok, T} = ssl:transport_accept(L),
        {ok, S} = ssl:handshake(T),
        {ok, D} = ssl:recv(S, 0),
        ok = ssl:send(S, <<"echo:", D/binary>>),
        ok = ssl:setopts(S, [{active, true}]),
        ok = ssl:send(S, integer_to_binary(collect(S, 0, 20000))),
        receive {ssl_closed, S} -> Self ! server_saw_close end
    end),
    {ok, C} = ssl:connect("localhost", Port, [binary, {active, false}, {versions, [Version]},
                                              {verify, verify_peer}, {server_name_indication, disable} | CConf]),
    ok = ssl:send(C, <<"hello">>),
    io:format("~p ~p~n", [Version, ssl:recv(C, 0, 5000)]),
    {ok, Info} = ssl:connection_information(C, [protocol, selected_cipher_suite]),
    io:format("~p~n", [Info]),
    ok = ssl:send(C, lists:duplicate(20000, $x)),
    ok = ssl:setopts(C, [{active, once}]),
    receive {ssl, C, Got} -> io:format("~s~n", [Got]) after 5000 -> io:format("timeout~n") end,
    {ok, Cert} = ssl:peercert(C),
    io:format("peer cert ~p~n", [is_binary(Cert)]),
    ok = ssl:close(C),
    receive server_saw_close -> io:format("closed~n") after 5000 -> io:format("no close~n") end,
    ssl:close(L).

%% Active-mode data until Want bytes (TLS records hold at most 16 KiB; how they are grouped into
%% messages depends on TCP's segments).
collect(_, N, Want) when N >= Want -> N;
collect(S, N, Want) -> receive {ssl, S, D} -> collect(S, N + byte_size(D), Want) after 5000 -> {timeout, N} end.
