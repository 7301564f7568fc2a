%% Differential test: gen_udp over the emulated udp_inet driver (open/bind/send/recv, active modes,
%% binary/list, IPv6, connect, close). Output avoids port numbers and timings.
-module(inet_udp_basic).
-export([main/0]).

p(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

strip({ok, {IP, Port, Data}}) when is_integer(Port) -> {ok, {IP, port, Data}};
strip(X) -> X.

flush() -> receive M -> [M | flush()] after 100 -> [] end.

norm(L) -> [case M of {udp, _, IP, _, D} -> {udp, IP, D}; {udp_passive, _} -> udp_passive; O -> O end || M <- L].

main() ->
    {ok, A} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, B} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}, {reuseaddr, true},
                               {recbuf, 65536}, {sndbuf, 65536}]),
    {ok, PA} = inet:port(A),
    {ok, PB} = inet:port(B),
    p(ports_nonzero, {PA > 0, PB > 0}),
    {ok, {IPA, PA2}} = inet:sockname(A),
    p(sockname, {IPA, PA2 =:= PA}),
    p(peername_unconnected, inet:peername(A)),
    p(send1, gen_udp:send(A, {127,0,0,1}, PB, <<"hello">>)),
    p(recv1, strip(gen_udp:recv(B, 0, 2000))),
    p(send_iolist, gen_udp:send(A, {127,0,0,1}, PB, ["ab", <<"cd">>, [$e]])),
    {ok, {_, FromPort, _}} = R2 = gen_udp:recv(B, 0, 2000),
    p(recv2, {strip(R2), FromPort =:= PA}),
    p(recv_timeout, gen_udp:recv(B, 0, 50)),
    p(recv_timeout0, gen_udp:recv(B, 0, 0)),
    p(empty_dgram, gen_udp:send(A, {127,0,0,1}, PB, <<>>)),
    p(recv_empty, strip(gen_udp:recv(B, 0, 2000))),
    %% list mode
    ok = inet:setopts(B, [list]),
    p(getopts_mode, inet:getopts(B, [mode, active])),
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"list">>),
    p(recv_list, strip(gen_udp:recv(B, 0, 2000))),
    ok = inet:setopts(B, [binary]),
    %% active true
    ok = inet:setopts(B, [{active, true}]),
    p(recv_active_einval, gen_udp:recv(B, 0, 10)),
    [ok = gen_udp:send(A, {127,0,0,1}, PB, [N]) || N <- [1, 2, 3]],
    p(active_true, norm(flush())),
    %% active once
    ok = inet:setopts(B, [{active, once}]),
    [ok = gen_udp:send(A, {127,0,0,1}, PB, [N]) || N <- [4, 5]],
    p(active_once, norm(flush())),
    p(after_once, inet:getopts(B, [active])),
    p(recv_after_once, strip(gen_udp:recv(B, 0, 2000))),
    %% active N
    ok = inet:setopts(B, [{active, 2}]),
    p(getopts_n, inet:getopts(B, [active])),
    [ok = gen_udp:send(A, {127,0,0,1}, PB, [N]) || N <- [6, 7, 8]],
    p(active_n, norm(flush())),
    p(recv_after_n, strip(gen_udp:recv(B, 0, 2000))),
    ok = inet:setopts(B, [{active, 0}]),
    p(active_0, norm(flush())),
    %% list mode active
    ok = inet:setopts(B, [list, {active, 1}]),
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"xy">>),
    p(active_list, norm(flush())),
    %% connected UDP
    p(connect, gen_udp:connect(A, {127,0,0,1}, PB)),
    {ok, {PeerIP, PeerPort}} = inet:peername(A),
    p(peername, {PeerIP, PeerPort =:= PB}),
    p(send_connected, gen_udp:send(A, <<"conn">>)),
    ok = inet:setopts(B, [binary]),
    p(recv_connected, strip(gen_udp:recv(B, 0, 2000))),
    %% close
    p(close, gen_udp:close(B)),
    p(recv_closed, gen_udp:recv(B, 0, 100)),
    p(send_closed, gen_udp:send(B, {127,0,0,1}, PA, <<"x">>)),
    p(close_again, gen_udp:close(B)),
    ok = gen_udp:close(A),
    %% pending recv then close from another process
    {ok, C} = gen_udp:open(0, [binary, {active, false}]),
    Self = self(),
    spawn(fun() -> Self ! {rc, gen_udp:recv(C, 0, 5000)} end),
    timer:sleep(50),
    gen_udp:close(C),
    p(recv_pending_close, receive {rc, R} -> R after 2000 -> none end),
    %% IPv6
    case gen_udp:open(0, [inet6, binary, {active, false}, {ip, {0,0,0,0,0,0,0,1}}]) of
        {ok, X} ->
            {ok, Y} = gen_udp:open(0, [inet6, binary, {active, true}, {ip, {0,0,0,0,0,0,0,1}}]),
            {ok, PY} = inet:port(Y),
            p(v6_send, gen_udp:send(X, {0,0,0,0,0,0,0,1}, PY, <<"six">>)),
            p(v6_active, norm(flush())),
            ok = inet:setopts(Y, [{active, false}]),
            ok = gen_udp:send(X, {0,0,0,0,0,0,0,1}, PY, <<"six2">>),
            p(v6_recv, strip(gen_udp:recv(Y, 0, 2000))),
            {ok, {SIP, _}} = inet:sockname(Y),
            p(v6_sockname, SIP),
            gen_udp:close(X), gen_udp:close(Y);
        E -> p(v6_open, E)
    end,
    %% default open (active true, list)
    {ok, D} = gen_udp:open(0),
    {ok, PD} = inet:port(D),
    {ok, E2} = gen_udp:open(0),
    ok = gen_udp:send(E2, {127,0,0,1}, PD, "dflt2"),
    p(default_active, norm(flush())),
    p(getopts_default, inet:getopts(D, [active, mode, reuseaddr])),
    gen_udp:close(D), gen_udp:close(E2),
    ok.
