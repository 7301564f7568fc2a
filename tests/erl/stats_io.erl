-module(stats_io).
%% statistics(io) counts the bytes through ports (standard output, port programs, sockets), and
%% port_info(P, input | output) those of one port.
-export([main/0]).

main() ->
    {{input, I0}, {output, O0}} = statistics(io),
    io:format("~s~n", [lists:duplicate(1000, $x)]),
    P = open_port({spawn, "cat"}, [binary]),
    port_command(P, <<0:8000>>),
    Got = recv(P, 0),
    {input, PI} = erlang:port_info(P, input),
    {output, PO} = erlang:port_info(P, output),
    port_close(P),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, Port} = inet:port(L),
    {ok, C} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    ok = gen_tcp:send(C, <<0:4000>>),
    {ok, _} = gen_tcp:recv(S, 500),
    {{input, I1}, {output, O1}} = statistics(io),
    gen_tcp:close(C), gen_tcp:close(S), gen_tcp:close(L),
    {{input, I2}, {output, O2}} = statistics(io),
    io:format("port echo ~p, port_info ~p ~p~n", [Got, PI, PO]),
    io:format("input grew by the port and the socket: ~p~n", [I1 - I0 >= 1000 + 500]),
    io:format("output grew by stdout, the port and the socket: ~p~n", [O1 - O0 >= 1001 + 1000 + 500]),
    io:format("closed ports still count: ~p~n", [I2 >= I1 andalso O2 >= O1]),
    ok.

recv(_P, 1000) -> 1000;
recv(P, N) -> receive {P, {data, D}} -> recv(P, N + byte_size(D)) after 5000 -> {timeout, N} end.
