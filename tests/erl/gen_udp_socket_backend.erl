-module(gen_udp_socket_backend).
%% gen_udp with {inet_backend, socket} (OTP 25's gen_udp_socket over the socket NIF, ADR 0054): send,
%% active and passive receive with the sender's address, recv timeout.
-export([main/0]).
main() ->
    {ok, A} = gen_udp:open(0, [{inet_backend, socket}, binary, {active, false}]),
    {ok, B} = gen_udp:open(0, [{inet_backend, socket}, binary, {active, true}]),
    {ok, PA} = inet:port(A), {ok, PB} = inet:port(B),
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"hi">>),
    receive {udp, B, IP, P, D} -> io:format("~p ~p ~p~n", [IP, P =:= PA, D]) after 2000 -> io:format("none~n") end,
    ok = gen_udp:send(B, {127,0,0,1}, PA, <<"back">>),
    {ok, {IP2, P2, D2}} = gen_udp:recv(A, 0, 1000),
    io:format("~p ~p ~p~n", [IP2, P2 =:= PB, D2]),
    io:format("~p~n", [gen_udp:recv(A, 0, 50)]),
    gen_udp:close(A), gen_udp:close(B).
