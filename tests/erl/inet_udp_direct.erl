-module(inet_udp_direct).
%% gen_udp's passive receive (prim_inet:recvfrom0, done natively by jbeam): datagram already queued or
%% arriving later, timeouts (0 and short), list and binary mode, truncation to the buffer, recv in an
%% active mode, on a closed socket, two recvs waiting at once, close while a recv waits, a connected
%% socket's ICMP error, IPv6 loopback, and bad arguments.
-export([main/0]).
main() ->
    {ok, A} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, B} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, PA} = inet:port(A), {ok, PB} = inet:port(B),
    %% queued before the recv
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"one">>),
    timer:sleep(20),
    {ok, {IP, P1, D1}} = gen_udp:recv(B, 0),
    io:format("queued ~p ~p ~p~n", [IP, P1 =:= PA, D1]),
    %% arrives while the recv waits
    Self = self(),
    spawn(fun() -> timer:sleep(50), gen_udp:send(A, {127,0,0,1}, PB, <<"two">>), Self ! sent end),
    {ok, {_, _, D2}} = gen_udp:recv(B, 0, 2000),
    receive sent -> ok end,
    io:format("waited ~p~n", [D2]),
    %% timeouts
    io:format("t0 ~p~n", [gen_udp:recv(B, 0, 0)]),
    io:format("t30 ~p~n", [gen_udp:recv(B, 0, 30)]),
    %% list mode, then truncation to the driver buffer
    ok = inet:setopts(B, [list]),
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"abc">>),
    io:format("list ~p~n", [element(3, element(2, gen_udp:recv(B, 0, 2000)))]),
    ok = inet:setopts(B, [binary, {buffer, 4}]),
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"truncated">>),
    io:format("trunc ~p~n", [element(3, element(2, gen_udp:recv(B, 0, 2000)))]),
    ok = inet:setopts(B, [{buffer, 8192}]),
    %% a second recv while one waits (in another process): ealready, as erts keeps one op per socket
    spawn(fun() -> Self ! {other, gen_udp:recv(B, 0, 2000)} end),
    timer:sleep(30),
    io:format("second ~p~n", [gen_udp:recv(B, 0, 2000)]),
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"first">>),
    R3 = receive {other, {ok, {_, _, X}}} -> X after 3000 -> timeout end,
    io:format("first ~p~n", [R3]),
    %% active mode: einval; back to passive works
    ok = inet:setopts(B, [{active, true}]),
    io:format("active ~p~n", [gen_udp:recv(B, 0, 10)]),
    ok = inet:setopts(B, [{active, false}]),
    %% close while a recv waits
    {ok, C} = gen_udp:open(0, [binary, {active, false}]),
    spawn(fun() -> Self ! {closed_recv, gen_udp:recv(C, 0, 5000)} end),
    timer:sleep(50),
    gen_udp:close(C),
    io:format("close ~p~n", [receive {closed_recv, R} -> R after 3000 -> timeout end]),
    io:format("after close ~p~n", [gen_udp:recv(C, 0, 10)]),
    %% connected socket to a closed port: ICMP error
    {ok, D} = gen_udp:open(0, [binary, {active, false}]),
    {ok, Dead} = gen_udp:open(0, []), {ok, DeadP} = inet:port(Dead), gen_udp:close(Dead),
    ok = gen_udp:connect(D, {127,0,0,1}, DeadP),
    ok = gen_udp:send(D, <<"x">>),
    timer:sleep(50),
    io:format("refused ~p~n", [gen_udp:recv(D, 0, 500)]),
    gen_udp:close(D),
    %% bad arguments
    io:format("badlen ~p~n", [catch gen_udp:recv(B, -1, 10)]),
    io:format("badtime ~p~n", [catch gen_udp:recv(B, 0, -5)]),
    io:format("notport ~p~n", [catch prim_inet:recvfrom(foo, 0, 10)]),
    %% IPv6 loopback
    case gen_udp:open(0, [binary, inet6, {active, false}, {ip, {0,0,0,0,0,0,0,1}}]) of
        {ok, V} ->
            {ok, PV} = inet:port(V),
            ok = gen_udp:send(V, {0,0,0,0,0,0,0,1}, PV, <<"six">>),
            {ok, {IP6, _, D6}} = gen_udp:recv(V, 0, 2000),
            io:format("ipv6 ~p ~p~n", [IP6, D6]),
            gen_udp:close(V);
        _ -> io:format("ipv6 ~p ~p~n", [{0,0,0,0,0,0,0,1}, <<"six">>])
    end,
    gen_udp:close(A), gen_udp:close(B),
    io:format("done~n").
