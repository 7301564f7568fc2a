-module(gen_tcp_socket_backend).
%% gen_tcp with {inet_backend, socket} (OTP 25's gen_tcp_socket over the socket NIF, ADR 0054):
%% listen/accept/connect, passive recv with length and timeout, active true/once/N, packet modes,
%% options, names, controlling_process, shutdown, peer close and econnrefused.
-export([main/0]).
-define(B, {inet_backend, socket}).
main() ->
    {ok, L} = gen_tcp:listen(0, [?B, binary, {active, false}, {reuseaddr, true}]),
    {ok, P} = inet:port(L),
    io:format("sockname ~p~n", [inet:sockname(L) =:= {ok, {{0,0,0,0}, P}}]),
    Self = self(),
    spawn(fun() ->
                  {ok, A} = gen_tcp:accept(L),
                  {ok, D} = gen_tcp:recv(A, 5),
                  ok = gen_tcp:send(A, D),
                  Self ! {srv, gen_tcp:recv(A, 0, 1000)},
                  gen_tcp:close(A)
          end),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [?B, binary, {active, false}]),
    {ok, {{127,0,0,1}, P}} = inet:peername(C),
    ok = gen_tcp:send(C, <<"hel">>),
    ok = gen_tcp:send(C, "lo"),
    io:format("echo ~p~n", [gen_tcp:recv(C, 5, 1000)]),
    io:format("timeout ~p~n", [gen_tcp:recv(C, 0, 100)]),
    ok = gen_tcp:close(C),
    io:format("srv ~p~n", [receive {srv, R} -> R after 3000 -> none end]),
    %% active modes
    {ok, C2} = gen_tcp:connect({127,0,0,1}, P, [?B, binary, {active, true}]),
    {ok, A2} = gen_tcp:accept(L, 2000),
    ok = gen_tcp:send(A2, <<"act">>),
    io:format("active ~p~n", [receive {tcp, C2, D2} -> D2 after 2000 -> none end]),
    ok = inet:setopts(C2, [{active, once}]),
    ok = gen_tcp:send(A2, <<"once">>),
    io:format("once ~p~n", [receive {tcp, C2, D3} -> D3 after 2000 -> none end]),
    io:format("getopts ~p~n", [inet:getopts(C2, [active, mode, packet])]),
    ok = gen_tcp:send(A2, <<"held">>),
    timer:sleep(50),
    io:format("passive now ~p~n", [receive {tcp, C2, _} -> unexpected after 0 -> none end]),
    ok = inet:setopts(C2, [{active, 2}]),
    ok = gen_tcp:send(A2, <<"more">>),
    io:format("n ~p~n", [collect(C2, [])]),
    gen_tcp:close(A2),
    io:format("closed ~p~n", [receive {tcp_closed, C2} -> closed after 2000 -> none end]),
    gen_tcp:close(C2),
    %% packet 2 and line modes, list mode
    {ok, C3} = gen_tcp:connect({127,0,0,1}, P, [?B, binary, {active, false}, {packet, 2}]),
    {ok, A3} = gen_tcp:accept(L, 2000),
    ok = inet:setopts(A3, [{packet, 2}]),
    ok = gen_tcp:send(C3, <<"framed">>),
    ok = gen_tcp:send(C3, <<"two">>),
    io:format("packet2 ~p ~p~n", [gen_tcp:recv(A3, 0, 1000), gen_tcp:recv(A3, 0, 1000)]),
    ok = inet:setopts(A3, [{packet, line}, list]),
    ok = inet:setopts(C3, [{packet, raw}]),
    ok = gen_tcp:send(C3, <<"a line\nnext">>),
    io:format("line ~p~n", [gen_tcp:recv(A3, 0, 1000)]),
    %% options
    ok = inet:setopts(C3, [{nodelay, true}, {keepalive, true}]),
    io:format("opts ~p~n", [inet:getopts(C3, [nodelay, keepalive, packet])]),
    %% shutdown write: the peer sees closed
    ok = gen_tcp:shutdown(C3, write),
    io:format("after shutdown ~p ~p~n", [gen_tcp:recv(A3, 0, 1000), gen_tcp:recv(A3, 0, 1000)]),
    gen_tcp:close(A3),
    gen_tcp:close(C3),
    %% controlling_process
    {ok, C4} = gen_tcp:connect({127,0,0,1}, P, [?B, binary, {active, true}]),
    {ok, A4} = gen_tcp:accept(L, 2000),
    Q = spawn(fun() -> receive go -> Self ! {q, receive {tcp, _, D4} -> D4 after 2000 -> none end} end end),
    ok = gen_tcp:controlling_process(C4, Q),
    Q ! go,
    ok = gen_tcp:send(A4, <<"moved">>),
    io:format("moved ~p~n", [receive {q, D5} -> D5 after 3000 -> none end]),
    gen_tcp:close(A4),
    gen_tcp:close(L),
    io:format("refused ~p~n", [gen_tcp:connect({127,0,0,1}, P, [?B])]),
    io:format("accept closed ~p~n", [gen_tcp:accept(L, 100)]).

collect(S, Acc) ->
    receive
        {tcp, S, D} -> collect(S, [D | Acc]);
        {tcp_passive, S} -> {lists:reverse(Acc), passive}
    after 2000 -> {lists:reverse(Acc), timeout}
    end.
