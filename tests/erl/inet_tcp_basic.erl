-module(inet_tcp_basic).
-export([main/0]).

%% gen_tcp over OTP's own inet_tcp/prim_inet: echo, passive recv, active modes, packet framing.
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    io:format("port_ok ~p~n", [is_integer(Port) andalso Port > 0]),
    io:format("accept timeout ~p~n", [gen_tcp:accept(L, 50)]),
    Self = self(),
    spawn_link(fun() -> server(L, Self) end),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    ok = gen_tcp:send(C, <<"hello">>),
    io:format("echo ~p~n", [gen_tcp:recv(C, 5, 2000)]),
    ok = gen_tcp:send(C, [<<"ab">>, "cd", $e]),
    io:format("recv3 ~p~n", [gen_tcp:recv(C, 3, 2000)]),
    io:format("recv2 ~p~n", [gen_tcp:recv(C, 2, 2000)]),
    io:format("timeout ~p~n", [gen_tcp:recv(C, 0, 100)]),
    {ok, {PeerIP, _}} = inet:peername(C),
    {ok, {SockIP, _}} = inet:sockname(C),
    io:format("names ~p ~p~n", [PeerIP, SockIP]),
    io:format("opts ~p~n", [inet:getopts(C, [active, mode, packet, exit_on_close, nodelay])]),
    ok = inet:setopts(C, [{active, once}]),
    ok = gen_tcp:send(C, <<"x1">>),
    receive {tcp, C, D1} -> io:format("once ~p~n", [D1]) after 2000 -> io:format("no once~n") end,
    io:format("after once ~p~n", [inet:getopts(C, [active])]),
    ok = inet:setopts(C, [{active, 2}]),
    ok = gen_tcp:send(C, <<"y1">>), rcv(C),
    ok = gen_tcp:send(C, <<"y2">>), rcv(C),
    receive {tcp_passive, C} -> io:format("passive~n") after 2000 -> io:format("no passive~n") end,
    ok = inet:setopts(C, [{active, true}]),
    ok = gen_tcp:send(C, <<"z">>), rcv(C),
    ok = inet:setopts(C, [{active, false}, list]),
    ok = gen_tcp:send(C, <<"lst">>),
    io:format("list ~p~n", [gen_tcp:recv(C, 3, 2000)]),
    ok = gen_tcp:send(C, <<"quit">>),
    io:format("closed ~p~n", [gen_tcp:recv(C, 0, 2000)]),
    io:format("closed again ~p~n", [gen_tcp:recv(C, 0, 2000)]),
    io:format("send closed ~p~n", [gen_tcp:send(C, <<"x">>)]),
    gen_tcp:close(C),
    receive {server_done, R} -> io:format("server ~p~n", [R]) end,
    gen_tcp:close(L),
    io:format("accept closed ~p~n", [gen_tcp:accept(L, 100)]).

rcv(C) ->
    receive {tcp, C, D} -> io:format("active ~p~n", [D]) after 2000 -> io:format("no data~n") end.

server(L, Parent) ->
    {ok, S} = gen_tcp:accept(L, 5000),
    Parent ! {server_done, echo(S)}.

echo(S) ->
    case gen_tcp:recv(S, 0, 5000) of
        {ok, <<"quit">>} -> gen_tcp:close(S), quit;
        {ok, D} -> ok = gen_tcp:send(S, D), echo(S);
        E -> E
    end.
