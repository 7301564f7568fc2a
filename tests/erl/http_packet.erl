-module(http_packet).
-export([main/0]).
main() ->
    {ok, LS} = gen_tcp:listen(0, [binary, {packet, http_bin}, {active, false}, {reuseaddr, true}]),
    {ok, Port} = inet:port(LS),
    Self = self(),
    spawn_link(fun() -> acceptor(LS, Self) end),
    Reqs = [<<"GET /a?b=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nX-Custom: yes\r\n\r\nhello">>,
            <<"POST /p HTTP/1.0\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc">>,
            <<"BREW /pot HTTP/1.1\r\nAccept-Encoding: gzip\r\nContent-Length: 0\r\n\r\n">>,
            <<"GET http://h:8/x HTTP/1.1\r\nCookie: a=b\r\nContent-Length: 0\r\n\r\n">>,
            <<"garbage\r\n\r\n">>],
    [begin
        {ok, C} = gen_tcp:connect("127.0.0.1", Port, [binary, {active, false}, {packet, raw}]),
        %% send in small pieces to exercise reassembly
        [ok = gen_tcp:send(C, [B]) || B <- chunks(R, 7)],
        receive {req, Got} -> io:format("~p~n", [Got]) after 3000 -> io:format("timeout~n") end,
        gen_tcp:close(C)
     end || R <- Reqs],
    io:format("~p~n", [[erlang:decode_packet(T, B, []) || {T, B} <- [{http_bin, <<"GET / HTTP/1.1\r\n">>}, {httph_bin, <<"Host: a\r\n">>},
        {http, <<"HTTP/1.1 200 OK\r\n">>}, {httph, <<"X-Y: z\r\nmore">>}, {line, <<"abc\ndef">>}, {2, <<0,3,1,2,3,4>>}, {http_bin, <<"GET / HTTP/1.1\r">>},
        {httph_bin, <<"\r\n">>}, {asn1, <<48,3,1,1,1>>}, {sunrm, <<128,0,0,2,9,9>>}, {cdr, <<"GIOP",1,0,0,0,0,0,0,0>>}, {fcgi, <<1,1,0,1,0,2,0,0,7,7>>}, {tpkt, <<3,0,0,5,9>>}]]]),
    ok.
chunks(B, N) when byte_size(B) =< N -> [B];
chunks(B, N) -> <<H:N/binary, T/binary>> = B, [H | chunks(T, N)].
acceptor(LS, Parent) ->
    {ok, S} = gen_tcp:accept(LS),
    ok = inet:setopts(S, [{active, once}]),
    Parent ! {req, collect(S, [])},
    acceptor(LS, Parent).
collect(S, Acc) ->
    receive
        {http, S, http_eoh} ->
            Len = case lists:keyfind('Content-Length', 2, Acc) of {_, _, _, _, V} -> binary_to_integer(V); _ -> 0 end,
            ok = inet:setopts(S, [{packet, raw}]),
            Body = case Len of 0 -> <<>>; _ -> {ok, B} = gen_tcp:recv(S, Len, 2000), B end,
            lists:reverse([{body, Body} | Acc]);
        {http, S, {http_error, E}} -> lists:reverse([{error, E} | Acc]);
        {http, S, Pkt} -> ok = inet:setopts(S, [{active, once}]), collect(S, [Pkt | Acc]);
        {tcp_closed, S} -> lists:reverse([closed | Acc])
    after 2000 -> lists:reverse([timeout | Acc])
    end.
