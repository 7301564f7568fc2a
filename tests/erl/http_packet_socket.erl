-module(http_packet_socket).
-export([main/0]).
%% The inet driver's packet types on TCP sockets: http/httph (lists) and http_bin/httph_bin
%% (binaries) delivered as terms in passive and active mode, the header state switch after a
%% request or status line and back after http_eoh, errors and emsgsize (packet_size, buffer),
%% setopts between types, line truncation to the buffer, asn1/sunrm/cdr/fcgi/tpkt/ssl_tls framing.

pair(Opts) ->
    {ok, LS} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true} | Opts]),
    {ok, Port} = inet:port(LS),
    {ok, C} = gen_tcp:connect("127.0.0.1", Port, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(LS),
    gen_tcp:close(LS),
    {C, S}.

anon(S, T) when is_tuple(T) -> list_to_tuple([anon(S, E) || E <- tuple_to_list(T)]);
anon(S, S) -> s;
anon(_, X) -> X.

drain(S, Acc) ->
    case gen_tcp:recv(S, 0, 300) of
        {ok, P} -> drain(S, [anon(S, P) | Acc]);
        E -> lists:reverse([E | Acc])
    end.

act(S, Acc) ->
    receive
        {_, S, _} = M -> act(S, [anon(S, M) | Acc]);
        {_, S} = M -> act(S, [anon(S, M) | Acc]);
        {_, S, _, _, _} = M -> act(S, [anon(S, M) | Acc])
    after 300 -> lists:reverse(Acc)
    end.

short(L) when is_list(L) -> [short(X) || X <- L];
short(T) when is_tuple(T) -> list_to_tuple(short(tuple_to_list(T)));
short(B) when is_binary(B), byte_size(B) > 40 -> {bytes, byte_size(B)};
short(X) -> X.

t(Name, Opts, Data) ->
    {C, S} = pair(Opts),
    ok = gen_tcp:send(C, Data),
    io:format("~s passive: ~p~n", [Name, short(drain(S, []))]),
    gen_tcp:close(C), gen_tcp:close(S),
    {C2, S2} = pair(Opts),
    ok = gen_tcp:send(C2, Data),
    ok = inet:setopts(S2, [{active, true}]),
    io:format("~s active: ~p~n", [Name, short(act(S2, []))]),
    gen_tcp:close(C2), gen_tcp:close(S2).

main() ->
    {_, S0} = pair([{packet, http}]),
    io:format("~p~n", [inet:getopts(S0, [buffer, packet, packet_size])]),
    [begin ok = inet:setopts(S0, [{packet, P}]), {ok, [{packet, Q}]} = inet:getopts(S0, [packet]), io:format("~p ", [Q]) end
     || P <- [raw, 0, 1, 2, 4, asn1, sunrm, cdr, fcgi, line, tpkt, http, httph, http_bin, httph_bin, ssl_tls]],
    io:format("~n~p~n", [gen_tcp:recv(S0, 5, 100)]),
    t("blank", [{packet, http_bin}], <<"\r\n\r\nGET / HTTP/1.1\r\nA: b\r\n\r\nGET /2 HTTP/1.0\r\n\r\n">>),
    t("long", [{packet, http_bin}], [<<"GET / HTTP/1.1\r\nX: ">>, binary:copy(<<"a">>, 3000), <<"\r\n\r\n">>]),
    t("psize", [{packet, http_bin}, {packet_size, 20}], [<<"GET / HTTP/1.1\r\nX: ">>, binary:copy(<<"a">>, 30), <<"\r\n\r\nGET / HTTP/1.1\r\n">>]),
    t("err", [{packet, http}], <<"bad line\r\nGET / HTTP/1.1\r\nbad header\r\nA: b\r\n\r\n">>),
    t("resp", [{packet, http}, list], <<"HTTP/1.0 404 Not Found\r\nServer: x\r\n c\r\nContent-Length: 3\r\n\r\n">>),
    t("httph", [{packet, httph_bin}], <<"A: b\r\n\r\nC: d\r\n\r\n">>),
    t("lf", [{packet, http}], <<"GET /x?y HTTP/1.1\nhost: h\nx-a:  1\n\n">>),
    t("line", [{packet, line}], [<<"abc\n">>, binary:copy(<<"b">>, 3000), <<"\nxyz">>]),
    t("lineps", [{packet, line}, {packet_size, 10}], [<<"abc\n">>, binary:copy(<<"b">>, 30), <<"\nxyz">>]),
    t("linebuf", [{packet, line}, {buffer, 10}], <<"abcdefghijklmnopqrstuvwxyz\nab\n">>),
    t("linerecbuf", [{packet, line}, {recbuf, 4000}], [binary:copy(<<"c">>, 5000), <<"\n">>]),
    t("asn1", [{packet, asn1}], <<48,3,1,1,1, 48,129,2,7,7, 4,0>>),
    t("sunrm", [{packet, sunrm}], <<128,0,0,2,9,9, 0,0,0,1,5>>),
    t("cdr", [{packet, cdr}], <<"GIOP",1,0,0,0,0,0,0,2,7,7, "GIOP",1,0,1,0,1,0,0,0,9>>),
    t("fcgi", [{packet, fcgi}], <<1,1,0,1,0,2,1,0,7,7,0>>),
    t("tpkt", [{packet, tpkt}], <<3,0,0,5,9, 3,0,0,4>>),
    t("cdrbad", [{packet, cdr}], <<"XIOP",1,0,0,0,0,0,0,2,7,7>>),
    t("ssl_tls", [{packet, ssl_tls}], <<22,3,1,0,2,7,7, 128,5,1,3,1,9,9, 23,3,3,0,1,5>>),
    t("p4size", [{packet, 4}, {packet_size, 10}], <<0,0,0,2,1,2, 0,0,0,20, 1:160>>),
    t("httpbuf", [{packet, http_bin}, {buffer, 10}], <<"GET / HTTP/1.1\r\n">>),
    t("continued", [{packet, http_bin}], <<"GET / HTTP/1.1\r\nA: 1\r\n 2\r\n\t3\r\nB: 4\r\n\r\n">>),
    stalls(),
    switches(),
    modes(),
    ok.

%% A packet_size error after a packet of the same read is silent until more input arrives.
stalls() ->
    {C, S} = pair([{packet, http_bin}, {packet_size, 20}]),
    ok = gen_tcp:send(C, [<<"GET / HTTP/1.1\r\nX: ">>, binary:copy(<<"a">>, 30), <<"\r\n\r\n">>]),
    timer:sleep(100),
    ok = inet:setopts(S, [{active, true}]),
    io:format("a1 ~p~n", [act(S, [])]),
    ok = gen_tcp:send(C, <<"x">>),
    io:format("a2 ~p~n", [act(S, [])]),
    {C3, S3} = pair([{packet, http_bin}, {packet_size, 20}]),
    ok = inet:setopts(S3, [{active, true}]),
    ok = gen_tcp:send(C3, [<<"GET / HTTP/1.1\r\nX: ">>, binary:copy(<<"a">>, 30)]),
    io:format("a3 ~p~n", [act(S3, [])]),
    gen_tcp:close(C3),
    io:format("a4 ~p~n", [act(S3, [])]),
    {C4, S4} = pair([{packet, http}, {exit_on_close, false}, {packet_size, 20}]),
    ok = gen_tcp:send(C4, [<<"GET / HTTP/1.1\r\nX: ">>, binary:copy(<<"a">>, 30)]),
    io:format("p ~p ~p~n", [gen_tcp:recv(S4, 0, 300), gen_tcp:recv(S4, 0, 300)]),
    io:format("p ~p ~p~n", [gen_tcp:recv(S4, 0, 300), gen_tcp:send(S4, <<"x">>)]),
    {C5, S5} = pair([{packet, 4}, {packet_size, 10}]),
    ok = gen_tcp:send(C5, <<0,0,0,20, 1:160>>),
    R1 = gen_tcp:recv(S5, 0, 300),
    io:format("p4 ~p then ~p~n", [R1, gen_tcp:recv(S5, 0, 300)]),
    [gen_tcp:close(X) || X <- [C, S, C3, S3, C4, S4, C5, S5]].

%% The socket moves to header parsing after a request line and back after http_eoh; setopts
%% to raw in between reads the raw bytes and keeps the state.
switches() ->
    {C, S} = pair([{packet, http_bin}]),
    ok = gen_tcp:send(C, <<"GET / HTTP/1.1\r\nA: b\r\n">>),
    R1 = gen_tcp:recv(S, 0, 300), R2 = gen_tcp:recv(S, 0, 300),
    ok = inet:setopts(S, [{packet, raw}]),
    R3 = gen_tcp:recv(S, 0, 300),
    ok = inet:setopts(S, [{packet, http_bin}]),
    ok = gen_tcp:send(C, <<"C: d\r\n\r\nHTTP/1.1 200 OK\r\n">>),
    io:format("~p~n", [{R1, R2, R3, [gen_tcp:recv(S, 0, 300) || _ <- [1, 2, 3, 4]]}]),
    ok = gen_tcp:send(C, <<"Content-Length: 4\r\n\r\nbody">>),
    R4 = gen_tcp:recv(S, 0, 300), R5 = gen_tcp:recv(S, 0, 300),
    ok = inet:setopts(S, [{packet, raw}]),
    io:format("~p~n", [{R4, R5, gen_tcp:recv(S, 4, 300)}]),
    ok = inet:setopts(S, [{packet, http}]),
    io:format("~p~n", [gen_tcp:recv(S, 4, 0)]),
    ok = gen_tcp:send(C, <<"PUT /u HTTP/1.1\r\nhost: x\r\n\r\n">>),
    ok = inet:setopts(S, [{active, 2}]),
    io:format("~p~n", [act(S, [])]),
    ok = gen_tcp:send(S, <<"HTTP/1.1 204 No Content\r\n\r\n">>),
    io:format("~p~n", [gen_tcp:recv(C, 0, 300)]),
    gen_tcp:close(C), gen_tcp:close(S).

%% list mode still gives binaries for http_bin; header {header, N} does not apply to http terms.
modes() ->
    {C, S} = pair([list, {packet, http_bin}, {header, 2}]),
    ok = gen_tcp:send(C, <<"GET /l HTTP/1.1\r\nHost: h\r\n\r\n">>),
    io:format("~p~n", [drain(S, [])]),
    ok = inet:setopts(S, [{packet, http}, binary]),
    ok = gen_tcp:send(C, <<"GET /l HTTP/1.1\r\nHost: h\r\n\r\n">>),
    io:format("~p~n", [drain(S, [])]),
    ok = inet:setopts(S, [{packet, line}, {active, once}]),
    ok = gen_tcp:send(C, <<"one\ntwo\n">>),
    io:format("~p~n", [act(S, [])]),
    gen_tcp:close(C),
    io:format("~p~n", [catch gen_udp:open(0, [{packet, http}])]),
    {ok, U} = gen_udp:open(0, [binary, {active, false}]),
    {ok, UP} = inet:port(U),
    ok = gen_udp:send(U, "127.0.0.1", UP, <<"GET / HTTP/1.1\r\n">>),
    {ok, {_, _, D}} = gen_udp:recv(U, 0, 1000),
    io:format("udp ~p~n", [D]),
    %% a packet type on a UDP socket is accepted and does not change what a datagram delivers
    io:format("~p~n", [[inet:setopts(U, [{packet, P}]) || P <- [http_bin, 4, line, asn1]]]),
    ok = gen_udp:send(U, "127.0.0.1", UP, <<"GET / HTTP/1.1\r\n">>),
    {ok, {_, _, D2}} = gen_udp:recv(U, 0, 1000),
    io:format("udp ~p ~p~n", [D2, inet:getopts(U, [packet])]),
    gen_udp:close(U),
    gen_tcp:close(S).
