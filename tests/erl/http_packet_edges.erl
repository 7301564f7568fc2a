-module(http_packet_edges).
-export([main/0]).
%% Edge cases of the inet driver's packet types: the peer closing mid-line, switching between
%% http and httph inside a header block, packet_size boundaries, line_delimiter, asn1/ssl_tls
%% limits, active once and {active, N} with http messages, a request split into single bytes.

pair(Opts) ->
    {ok, LS} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true} | Opts]),
    {ok, Port} = inet:port(LS),
    {ok, C} = gen_tcp:connect("127.0.0.1", Port, [binary, {active, false}, {nodelay, true}]),
    {ok, S} = gen_tcp:accept(LS),
    gen_tcp:close(LS),
    {C, S}.

anon(S, T) when is_tuple(T) -> list_to_tuple([anon(S, E) || E <- tuple_to_list(T)]);
anon(S, S) -> s;
anon(_, X) -> X.

drain(S) -> drain(S, []).
drain(S, Acc) ->
    case gen_tcp:recv(S, 0, 300) of
        {ok, P} -> drain(S, [anon(S, P) | Acc]);
        E -> lists:reverse([E | Acc])
    end.

act(S) -> act(S, []).
act(S, Acc) ->
    receive
        M when element(2, M) =:= S -> act(S, [anon(S, M) | Acc])
    after 300 -> lists:reverse(Acc)
    end.

main() ->
    process_flag(trap_exit, true),
    %% the peer closes with a partial line buffered
    {C1, S1} = pair([{packet, http_bin}]),
    ok = gen_tcp:send(C1, <<"GET / HTTP/1.1\r\nHost: x">>),
    gen_tcp:close(C1),
    io:format("closed mid-line passive ~p~n", [drain(S1)]),
    {C2, S2} = pair([{packet, http_bin}]),
    ok = gen_tcp:send(C2, <<"GET / HTTP/1.1\r\nHost: x\r\n">>),
    gen_tcp:close(C2),
    ok = inet:setopts(S2, [{active, true}]),
    io:format("closed mid-header active ~p~n", [act(S2)]),
    %% httph while a request's headers are read, then http after eoh
    {C3, S3} = pair([{packet, httph}]),
    ok = gen_tcp:send(C3, <<"A: 1\r\n\r\nGET / HTTP/1.1\r\nB: 2\r\n\r\n">>),
    R1 = gen_tcp:recv(S3, 0, 300), R2 = gen_tcp:recv(S3, 0, 300),
    ok = inet:setopts(S3, [{packet, http}]),
    io:format("httph then http ~p ~p ~p~n", [R1, R2, drain(S3)]),
    %% http switched to httph inside a header block and back
    {C4, S4} = pair([{packet, http_bin}]),
    ok = gen_tcp:send(C4, <<"HTTP/1.0 200 OK\r\nA: 1\r\nB: 2\r\n\r\nHTTP/1.1 500 X\r\n">>),
    Q1 = gen_tcp:recv(S4, 0, 300), Q2 = gen_tcp:recv(S4, 0, 300),
    ok = inet:setopts(S4, [{packet, httph_bin}]),
    Q3 = gen_tcp:recv(S4, 0, 300),
    ok = inet:setopts(S4, [{packet, http_bin}]),
    io:format("http httph http ~p~n", [{Q1, Q2, Q3, drain(S4)}]),
    %% packet_size at the boundary: a line of exactly N bytes, N + 1 bytes
    [begin
         {C, S} = pair([{packet, http_bin}, {packet_size, N}]),
         ok = gen_tcp:send(C, <<"GET /abc HTTP/1.1\r\nHost: abcdefghijklmn\r\n\r\n">>),
         io:format("packet_size ~p: ~p~n", [N, drain(S)]),
         gen_tcp:close(C)
     end || N <- [18, 19, 20, 24, 25, 26, 100]],
    [begin
         {C, S} = pair([{packet, line}, {packet_size, N}]),
         ok = gen_tcp:send(C, <<"abcd\nefghij\nk">>),
         io:format("line packet_size ~p: ~p~n", [N, drain(S)]),
         gen_tcp:close(C)
     end || N <- [4, 5, 6, 7]],
    {C5, S5} = pair([{packet, line}]),
    io:format("~p~n", [inet:setopts(S5, [{line_delimiter, $;}])]),
    ok = gen_tcp:send(C5, <<"a;bc;\nd;">>),
    io:format("line_delimiter ~p~n", [drain(S5)]),
    {C6, S6} = pair([{packet, asn1}, {packet_size, 3}]),
    ok = gen_tcp:send(C6, <<48, 2, 1, 1, 48, 4, 1, 1, 1, 1>>),
    io:format("asn1 packet_size ~p~n", [drain(S6)]),
    {C7, S7} = pair([{packet, ssl_tls}, list]),
    ok = gen_tcp:send(C7, <<22, 3, 3, 0, 3, 1, 2, 3, 21, 3, 3, 0, 0>>),
    ok = inet:setopts(S7, [{active, once}]),
    A1 = act(S7),
    ok = inet:setopts(S7, [{active, once}]),
    io:format("ssl_tls once ~p ~p~n", [A1, act(S7)]),
    %% {active, N} counts http messages
    {C8, S8} = pair([{packet, http}]),
    ok = gen_tcp:send(C8, <<"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n">>),
    ok = inet:setopts(S8, [{active, 3}]),
    N1 = act(S8),
    ok = inet:setopts(S8, [{active, 3}]),
    io:format("active 3 ~p ~p~n", [N1, act(S8)]),
    %% a request arriving one byte at a time
    {C9, S9} = pair([{packet, http_bin}]),
    ok = inet:setopts(S9, [{active, true}]),
    [begin ok = gen_tcp:send(C9, <<B>>), timer:sleep(2) end || <<B>> <= <<"POST /x HTTP/1.1\r\nContent-Type: a\r\n b\r\n\r\n">>],
    io:format("bytewise ~p~n", [act(S9)]),
    %% recv with a length is einval on http, a zero-timeout recv of an incomplete line times out
    {C10, S10} = pair([{packet, http}]),
    ok = gen_tcp:send(C10, <<"GET / HTTP/1.1\r\nHost: a">>),
    io:format("~p ~p ~p ~p~n", [gen_tcp:recv(S10, 3, 100), gen_tcp:recv(S10, 0, 100), gen_tcp:recv(S10, 0, 0), gen_tcp:recv(S10, 0, 100)]),
    ok = gen_tcp:send(C10, <<"\r\n\r\n">>),
    io:format("~p~n", [drain(S10)]),
    [gen_tcp:close(X) || X <- [S1, S2, C3, S3, C4, S4, C5, S5, C6, S6, C7, S7, C8, S8, C9, S9, C10, S10]],
    %% an active socket closed by emsgsize sends its owner no exit signal
    {C11, S11} = pair([{packet, http_bin}, {packet_size, 10}]),
    ok = inet:setopts(S11, [{active, true}]),
    ok = gen_tcp:send(C11, <<"GET /0123456789 HTTP/1.1\r\n">>),
    io:format("~p ~p~n", [act(S11), erlang:port_info(S11, id) =:= undefined]),
    io:format("exits ~p~n", [[R || {'EXIT', _, R} <- flush()]]),
    gen_tcp:close(C11),
    %% the buffer (which limits lines) follows a larger recbuf unless it was set; it is at least 1
    [begin {ok, L} = gen_tcp:listen(0, O), io:format("~p ~p~n", [O, inet:getopts(L, [buffer])]), gen_tcp:close(L) end
     || O <- [[{recbuf, 1000}], [{recbuf, 200000}], [{buffer, 0}], [{buffer, 100}, {recbuf, 5000}], [{recbuf, 5000}, {buffer, 100}]]],
    %% prim_inet:async_recv (the inet_async message path) with http packets and emsgsize
    {C12, S12} = pair([{packet, http}, {packet_size, 30}]),
    ok = gen_tcp:send(C12, <<"GET / HTTP/1.1\r\nHost: h\r\nX: 0123456789012345678901234567890123\r\n\r\n">>),
    AR = [begin {ok, Ref} = prim_inet:async_recv(S12, 0, 1000), receive {inet_async, S12, Ref, R} -> R after 2000 -> none end end
          || _ <- [1, 2, 3]],
    io:format("async ~p ~p~n", [AR, prim_inet:async_recv(S12, 0, 1000)]),
    gen_tcp:close(C12),
    {ok, L2} = gen_tcp:listen(0, []),
    ok = inet:setopts(L2, [{recbuf, 3000}]), B1 = inet:getopts(L2, [buffer]),
    ok = inet:setopts(L2, [{buffer, 50}]), ok = inet:setopts(L2, [{recbuf, 7000}]),
    io:format("~p ~p~n", [B1, inet:getopts(L2, [buffer])]),
    gen_tcp:close(L2),
    ok.

flush() ->
    receive M -> [M | flush()] after 100 -> [] end.
