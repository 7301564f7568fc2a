-module(inet_opts_edges).
-export([main/0]).
%% Option edges of gen_tcp/gen_udp/inet against erl: bad options, getopts after setopts, header,
%% packet_size overflow, line framing with a long line, send_timeout on a slow reader, shutdown.
main() ->
    p(bad_listen_opt, c(fun() -> gen_tcp:listen(0, [{active, maybe}]) end)),
    p(bad_packet, c(fun() -> gen_tcp:listen(0, [{packet, 3}]) end)),
    p(bad_backlog, c(fun() -> gen_tcp:listen(0, [{backlog, -1}]) end)),
    p(bad_port, c(fun() -> gen_tcp:listen(-1, []) end)),
    p(bad_connect_port, c(fun() -> gen_tcp:connect({127,0,0,1}, 70000, []) end)),
    p(bad_timeout, c(fun() -> gen_tcp:connect({127,0,0,1}, 1, [], -5) end)),
    p(udp_bad, c(fun() -> gen_udp:open(0, [{active, sometimes}]) end)),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, Port} = inet:port(L),
    p(listen_getopts, inet:getopts(L, [active, packet, mode, reuseaddr])),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [list, {active, false}, {header, 2}, {packet, 0}]),
    {ok, A} = gen_tcp:accept(L, 2000),
    p(client_opts, inet:getopts(C, [active, header, packet, mode, nodelay, send_timeout, exit_on_close])),
    ok = gen_tcp:send(A, <<1, 2, 3, 4, 5>>),
    p(header_recv, gen_tcp:recv(C, 5, 2000)),
    p(setopts_bad, c(fun() -> inet:setopts(C, [{packet, bogus}]) end)),
    p(setopts_unknown, c(fun() -> inet:setopts(C, [{no_such_option, 1}]) end)),
    p(getopts_unknown, c(fun() -> inet:getopts(C, [no_such_option]) end)),
    ok = inet:setopts(C, [binary, {header, 0}, {packet, 2}, {packet_size, 4}]),
    ok = gen_tcp:send(A, <<0, 10, "0123456789">>),
    p(packet_size_exceeded, gen_tcp:recv(C, 0, 2000)),
    gen_tcp:close(C), gen_tcp:close(A),
    %% line framing: a line longer than the buffer (recbuf) arrives whole or in pieces as erl does
    {ok, C2} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {packet, line}, {buffer, 16}]),
    {ok, A2} = gen_tcp:accept(L, 2000),
    ok = gen_tcp:send(A2, [binary:copy(<<"x">>, 40), "\nshort\n"]),
    p(long_line, recv_all(C2, [])),
    gen_tcp:close(C2), gen_tcp:close(A2),
    %% send_timeout: a reader that never reads
    {ok, C3} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {send_timeout, 200}, {sndbuf, 4096}]),
    {ok, A3} = gen_tcp:accept(L, 2000),
    ok = inet:setopts(A3, [{recbuf, 4096}]),
    p(send_timeout, fill(C3, binary:copy(<<"y">>, 65536), 0)),
    p(after_timeout_send, gen_tcp:send(C3, <<"z">>)),
    gen_tcp:close(C3), gen_tcp:close(A3),
    %% shutdown write: the peer sees closed, we can still read
    {ok, C4} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    {ok, A4} = gen_tcp:accept(L, 2000),
    ok = inet:setopts(A4, [{exit_on_close, false}]),
    p(shutdown_write, gen_tcp:shutdown(C4, write)),
    p(peer_recv, gen_tcp:recv(A4, 0, 2000)),
    ok = gen_tcp:send(A4, <<"still">>),
    p(half_open_recv, gen_tcp:recv(C4, 0, 2000)),
    p(send_after_shutdown, gen_tcp:send(C4, <<"no">>)),
    p(shutdown_bad, c(fun() -> gen_tcp:shutdown(C4, sideways) end)),
    gen_tcp:close(C4), gen_tcp:close(A4),
    p(closed_getopts, inet:getopts(C4, [active])),
    p(closed_setopts, inet:setopts(C4, [{active, true}])),
    p(closed_port, inet:port(C4)),
    p(closed_peername, inet:peername(C4)),
    gen_tcp:close(L),
    p(accept_closed, gen_tcp:accept(L, 100)).
recv_all(S, Acc) ->
    case gen_tcp:recv(S, 0, 300) of
        {ok, B} -> recv_all(S, [B | Acc]);
        {error, E} -> {lists:reverse(Acc), E}
    end.
fill(_, _, N) when N > 2000 -> {gave_up, N};
fill(S, B, N) ->
    case gen_tcp:send(S, B) of
        ok -> fill(S, B, N + 1);
        {error, E} -> {E, N > 0}
    end.
%% An error is printed without its stack (the frames differ between VMs).
c(F) -> try F() catch C:{R, [{_, _, _, _} | _]} -> {C, R}; C:R -> {C, R} end.
p(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).
