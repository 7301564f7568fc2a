-module(socket_udp).
%% The socket module over UDP on loopback (ADR 0054): sendto/recvfrom with the sender's address, recv
%% on a connected socket, timeouts, datagram boundaries and truncation to the requested size, a
%% datagram to a closed port (econnrefused on a connected socket), and IPv6 loopback.
-export([main/0]).
main() ->
    {ok, A} = socket:open(inet, dgram, udp),
    {ok, B} = socket:open(inet, dgram),
    ok = socket:bind(A, #{family => inet, addr => loopback, port => 0}),
    ok = socket:bind(B, #{family => inet, addr => loopback, port => 0}),
    {ok, #{port := PA} = AddrA} = socket:sockname(A),
    {ok, #{port := PB} = AddrB} = socket:sockname(B),
    ok = socket:sendto(A, <<"one">>, AddrB),
    ok = socket:sendto(A, [<<"tw">>, "o"], AddrB),
    {ok, {#{family := inet, addr := {127,0,0,1}, port := From}, D1}} = socket:recvfrom(B),
    io:format("from A ~p ~p~n", [From =:= PA, D1]),
    io:format("recvfrom ~p~n", [element(2, element(2, socket:recvfrom(B, 0, 1000)))]),
    io:format("timeout ~p~n", [socket:recvfrom(B, 0, 50)]),
    io:format("timeout0 ~p~n", [socket:recvfrom(B, 0, 0)]),
    %% a datagram longer than the buffer asked for is cut
    ok = socket:sendto(A, <<"0123456789">>, AddrB),
    {ok, {_, Cut}} = socket:recvfrom(B, 4, 1000),
    io:format("cut ~p~n", [Cut]),
    %% recv (no address) on an unconnected socket
    ok = socket:sendto(A, <<"plain">>, AddrB),
    io:format("recv ~p~n", [socket:recv(B, 0, 1000)]),
    %% connected: send/recv without addresses
    ok = socket:connect(B, AddrA),
    {ok, #{port := PA}} = socket:peername(B),
    ok = socket:send(B, <<"back">>),
    {ok, {#{port := PB2}, <<"back">>}} = socket:recvfrom(A, 0, 1000),
    io:format("back ~p~n", [PB2 =:= PB]),
    %% a bigger datagram
    Big = binary:copy(<<"z">>, 30000),
    ok = socket:sendto(A, Big, AddrB),
    {ok, {_, Big2}} = socket:recvfrom(B, 65536, 1000),
    io:format("big ~p~n", [Big2 =:= Big]),
    %% the peer goes away: the connected socket hears of it
    ok = socket:close(A),
    ok = socket:send(B, <<"lost">>),
    io:format("refused ~p~n", [socket:recv(B, 0, 1000)]),
    ok = socket:close(B),
    io:format("closed ~p~n", [socket:recvfrom(B, 0, 10)]),
    %% sendto an invalid address
    {ok, U} = socket:open(inet, dgram, udp),
    io:format("bad addr ~p~n", [socket:sendto(U, <<"x">>, #{family => inet, addr => {1,2}, port => 1})]),
    io:format("v6 addr on v4 ~p~n", [socket:sendto(U, <<"x">>, #{family => inet6, addr => loopback, port => 1})]),
    socket:close(U),
    %% IPv6 loopback
    {ok, V1} = socket:open(inet6, dgram, udp),
    {ok, V2} = socket:open(inet6, dgram, udp),
    ok = socket:bind(V1, #{family => inet6, addr => loopback, port => 0}),
    {ok, #{family := inet6, addr := {0,0,0,0,0,0,0,1}} = Addr6} = socket:sockname(V1),
    ok = socket:sendto(V2, <<"six">>, Addr6),
    {ok, {#{family := inet6, addr := From6}, Six}} = socket:recvfrom(V1, 0, 1000),
    io:format("v6 ~p ~p~n", [From6, Six]),
    socket:close(V1),
    socket:close(V2).
