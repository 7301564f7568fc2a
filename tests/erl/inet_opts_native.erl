-module(inet_opts_native).
%% prim_inet:setopts/2 and getopts/2 are native for the common option types (ADR 0027) and hand
%% everything else to prim_inet's Erlang body: values of every coded type round-trip through
%% setopts/getopts, an accepted socket inherits the listen socket's options (prim_inet:accept_opts),
%% and bad values, unknown options, {active, multi}, raw options, non-ports and closed ports give
%% exactly OTP's results.
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {nodelay, true},
                                 {linger, {true, 3}}, {packet, 2}, {send_timeout, 500}, {delay_send, true}]),
    show(getopts, inet:getopts(L, [active, nodelay, keepalive, delay_send, linger, packet, mode,
                                   send_timeout, send_timeout_close, exit_on_close, header, reuseaddr])),
    %% every coded type, set then read back
    Sets = [{active, true}, {active, once}, {active, false}, {active, 5}, {active, -3}, {active, 32767},
            {packet, 0}, {packet, 1}, {packet, 4}, {packet, raw}, {packet, line}, {packet, 2},
            binary, list, {mode, binary}, {mode, list}, {header, 3}, {header, 0},
            {linger, {false, 0}}, {linger, {true, 7}}, {send_timeout, infinity}, {send_timeout, 1000},
            {keepalive, true}, {keepalive, false}, {exit_on_close, true}, {send_timeout_close, true},
            {packet_size, 100}, {packet_size, 0}, {line_delimiter, $;}, {line_delimiter, $\n},
            {high_watermark, 9000}, {low_watermark, 4000}, {priority, 0}, {tos, 0}],
    [show(O, {inet:setopts(L, [O]), inet:getopts(L, [opt_name(O)])}) || O <- Sets],
    %% later options in one list win (prim_inet codes them oldest first)
    show(order, {inet:setopts(L, [{active, true}, {active, false}, binary, list]), inet:getopts(L, [active, mode])}),
    %% values prim_inet rejects, options it does not know, forms the natives leave to it
    Bad = [[{active, bogus}], [{active, 40000}], [{active, -40000}], [{keepalive, 1}], [{packet, 3}],
           [{mode, other}], [{header, -1}], [{send_timeout, -5}], [{linger, {1, 2}}], [{linger, true}],
           [{foo, 1}], [foo], [{packet_size, 1.0}], [{sndbuf, 1 bsl 40}],
           [{raw, 1, 2, <<1:32/native>>}], [{deliver, term}]],
    [show(B, inet:setopts(L, B)) || B <- Bad],
    show(after_bad, inet:getopts(L, [active, mode, packet])),
    show(get_bad, [tryit(fun() -> inet:getopts(L, G) end) || G <- [[bogus], [active, bogus], [{active, true}], [active | x]]]),
    show(get_empty, inet:getopts(L, [])),
    show(bad_tail, tryit(fun() -> prim_inet:setopts(L, [{active, true} | bad_tail]) end)),
    show(prim, [tryit(F) || F <- [fun() -> prim_inet:getopts(notaport, [active]) end,
                                  fun() -> prim_inet:setopts(notaport, [{active, true}]) end,
                                  fun() -> prim_inet:getopts(L, notalist) end,
                                  fun() -> prim_inet:setopts(L, notalist) end]]),
    ok = inet:setopts(L, [{active, false}, {packet, 2}, binary]),
    %% the option check inet:connect/listen run on every option
    show(sockopt_val, [prim_inet:is_sockopt_val(O, V) || {O, V} <-
        [{active, true}, {active, multi}, {active, 5}, {active, x}, {nodelay, true}, {nodelay, 1},
         {sndbuf, 1 bsl 70}, {sndbuf, -1}, {sndbuf, 1.0}, {header, -1}, {header, 1 bsl 70},
         {send_timeout, infinity}, {send_timeout, -1}, {linger, {true, 5}}, {linger, {true, x}},
         {linger, {true, 1, 2}}, {linger, true}, {packet, 4}, {packet, http_bin}, {packet, 3},
         {mode, binary}, {mode, x}, {bogus, 1}, {netns, <<"x">>}, {deliver, term}, {raw, x}]]),
    show(sockopt_val_bad, tryit(fun() -> prim_inet:is_sockopt_val("x", 1) end)),
    show(connect_bad, [tryit(fun() -> gen_tcp:connect({127,0,0,1}, 1, O) end) || O <-
        [[{active, bogus}], [{packet, 3}], [{nodelay, 1}], [{linger, true}], [{sndbuf, x}]]]),
    %% an accepted socket takes the listen socket's options
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}, {packet, 2}, {nodelay, true}]),
    {ok, S} = gen_tcp:accept(L),
    show(accepted, inet:getopts(S, [active, nodelay, delay_send, linger, packet, mode, send_timeout, keepalive])),
    show(connected, inet:getopts(C, [active, nodelay, packet, mode])),
    ok = gen_tcp:send(C, <<"hi">>),
    show(recv, gen_tcp:recv(S, 0, 2000)),
    ok = inet:setopts(S, [{active, 2}]),
    ok = gen_tcp:send(C, <<"a">>), ok = gen_tcp:send(C, <<"b">>),
    show(active_n, [receive M -> strip(M) after 2000 -> timeout end || _ <- [1, 2, 3]]),
    show(after_n, inet:getopts(S, [active])),
    gen_tcp:close(S), gen_tcp:close(C), gen_tcp:close(L),
    %% closed ports
    show(closed, {inet:getopts(L, [active]), inet:setopts(L, [{active, true}]), tryit(fun() -> prim_inet:getopts(L, [active]) end)}),
    %% udp sockets share the option coding
    {ok, U} = gen_udp:open(0, [binary, {active, false}]),
    show(udp, {inet:setopts(U, [{active, once}, list]), inet:getopts(U, [active, mode]),
               inet:setopts(U, [{active, bogus}])}),
    gen_udp:close(U),
    %% prim_inet:close/1: empty output queues close at once; queued output is still delivered
    {ok, L2} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, P2} = inet:port(L2),
    {ok, C2} = gen_tcp:connect({127,0,0,1}, P2, [binary, {active, false}, {linger, {true, 0}}]),
    {ok, S2} = gen_tcp:accept(L2),
    show(close_linger0, {gen_tcp:close(C2), gen_tcp:recv(S2, 0, 2000)}),
    {ok, C3} = gen_tcp:connect({127,0,0,1}, P2, [binary, {active, false}, {sndbuf, 4096}]),
    {ok, S3} = gen_tcp:accept(L2),
    Big = binary:copy(<<"abcdefgh">>, 100000),
    Sender = spawn(fun() -> gen_tcp:send(C3, Big) end),
    timer:sleep(100),
    %% the peer reads while the close waits (erl's close waits for the queue to drain)
    Me = self(),
    spawn(fun() -> Me ! {drained, byte_size(drain(S3, <<>>))} end),
    show(close_pending, gen_tcp:close(C3)),
    show(close_pending_peer, receive {drained, N} -> N after 10000 -> timeout end),
    exit(Sender, kill),
    show(close_twice, {gen_tcp:close(S2), gen_tcp:close(S2), gen_tcp:close(S3)}),
    show(close_bad, tryit(fun() -> prim_inet:close(notaport) end)),
    {ok, U2} = gen_udp:open(0),
    show(close_udp, {prim_inet:close(U2), prim_inet:close(U2)}),
    gen_tcp:close(L2),
    show(functions, length([F || {getopts, 2} = F <- prim_inet:module_info(functions)])).

opt_name({N, _}) -> N;
opt_name(binary) -> mode;
opt_name(list) -> mode.

strip({tcp, _, D}) -> {tcp, D};
strip({tcp_passive, _}) -> tcp_passive;
strip(M) -> M.

show(Tag, V) -> io:format("~p ~p~n", [Tag, V]).

drain(S, Acc) ->
    case gen_tcp:recv(S, 0, 2000) of
        {ok, D} -> drain(S, <<Acc/binary, D/binary>>);
        {error, _} -> Acc
    end.

tryit(F) -> try F() catch C:R -> {C, R} end.
