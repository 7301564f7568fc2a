-module(ssl_echo).
-export([main/0]).
main() ->
    {ok, _} = application:ensure_all_started(ssl),
    #{server_config := SC, client_config := CC} =
        public_key:pkix_test_data(#{server_chain => #{root => [{key, {namedCurve, secp256r1}}],
                                                      peer => [{key, {namedCurve, secp256r1}}]},
                                    client_chain => #{root => [{key, {namedCurve, secp256r1}}],
                                                      peer => [{key, {namedCurve, secp256r1}}]}}),
    {ok, LS} = ssl:listen(0, [binary, {active, false}, {reuseaddr, true} | SC]),
    {ok, {_, Port}} = ssl:sockname(LS),
    Self = self(),
    spawn_link(fun() ->
        {ok, T} = ssl:transport_accept(LS),
        {ok, S} = ssl:handshake(T, 5000),
        loop(S), Self ! server_done end),
    {ok, C} = ssl:connect("localhost", Port, [binary, {active, false}, {verify, verify_peer}, {server_name_indication, disable} | CC], 5000),
    {ok, Info} = ssl:connection_information(C, [protocol, selected_cipher_suite]),
    io:format("protocol ~p~n", [proplists:get_value(protocol, Info)]),
    R = [begin ok = ssl:send(C, <<I:32, (binary:copy(<<"x">>, I))/binary>>),
               {ok, <<I:32, B/binary>>} = ssl:recv(C, 4 + I, 5000), byte_size(B) end || I <- [1, 100, 5000, 20000]],
    io:format("echo sizes ~p~n", [R]),
    ok = ssl:close(C),
    receive server_done -> ok after 5000 -> io:format("no server_done~n") end,
    {error, E} = ssl:connect("localhost", Port + 0, [binary, {verify, verify_peer}, {cacerts, []}], 2000),
    io:format("bad client ~p~n", [case E of {tls_alert, {A, _}} -> A; {options, _} -> options; Other -> Other end]),
    ok.
loop(S) ->
    case ssl:recv(S, 4, 5000) of
        {ok, <<N:32>>} -> {ok, B} = recv_n(S, N), ok = ssl:send(S, <<N:32, B/binary>>), loop(S);
        {error, closed} -> ok
    end.
recv_n(S, N) -> ssl:recv(S, N, 5000).
