-module(socket_tcp_echo).
%% The socket module (NIF prim_socket, ADR 0054) over TCP on loopback: listen/accept/connect, send and
%% recv (length 0, an exact length gathered from several sends, timeouts), an echo server in another
%% process, names, shutdown, peer close seen as {error, closed}, and operations on a closed socket.
-export([main/0]).
main() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:setopt(L, {socket, reuseaddr}, true),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, #{family := inet, addr := {127,0,0,1}, port := P}} = socket:sockname(L),
    Self = self(),
    Srv = spawn(fun() -> server(L, Self) end),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, #{family => inet, addr => {127,0,0,1}, port => P}),
    {ok, #{port := P}} = socket:peername(C),
    {ok, #{port := CP}} = socket:sockname(C),
    io:format("ports differ ~p~n", [CP =/= P]),
    ok = socket:send(C, <<"hello">>),
    io:format("echo ~p~n", [socket:recv(C, 5)]),
    ok = socket:send(C, [<<"ab">>, "cd", [$e]]),
    io:format("echo ~p~n", [socket:recv(C, 5, 2000)]),
    %% an exact length gathered from two sends
    ok = socket:send(C, <<"12">>),
    timer:sleep(20),
    ok = socket:send(C, <<"345">>),
    io:format("echo ~p~n", [socket:recv(C, 5, 2000)]),
    %% nothing more: timeouts
    io:format("timeout ~p~n", [socket:recv(C, 0, 50)]),
    io:format("timeout0 ~p~n", [socket:recv(C, 0, 0)]),
    io:format("timeout len ~p~n", [socket:recv(C, 3, 50)]),
    %% part of a length, then the timeout: the part comes back with it
    ok = socket:send(C, <<"xy">>),
    io:format("partial ~p~n", [socket:recv(C, 10, 200)]),
    %% a big message: recv of a length collects it
    Big = binary:copy(<<"0123456789">>, 10000),
    ok = socket:send(C, Big),
    {ok, Back} = socket:recv(C, byte_size(Big), 5000),
    io:format("big ~p~n", [Back =:= Big]),
    %% the server closes: remaining data then {error, closed}
    ok = socket:send(C, <<"bye">>),
    receive {Srv, done} -> ok end,
    io:format("after close ~p~n", [socket:recv(C, 0, 2000)]),
    io:format("after close ~p~n", [socket:recv(C, 0, 2000)]),
    io:format("send after close ~p~n", [send_until_error(C, 20)]),
    ok = socket:close(C),
    io:format("closed ~p ~p ~p~n", [socket:recv(C, 0), socket:send(C, <<"x">>), socket:close(C)]),
    io:format("closed ~p ~p~n", [socket:sockname(C), socket:getopt(C, {socket, type})]),
    %% shutdown of the write side: the peer reads end of stream, we can still read
    {ok, C2} = socket:open(inet, stream, tcp),
    ok = socket:connect(C2, #{family => inet, addr => loopback, port => P}),
    {ok, A2} = socket:accept(L, 2000),
    ok = socket:shutdown(C2, write),
    io:format("shutdown ~p~n", [socket:recv(A2, 0, 2000)]),
    ok = socket:send(A2, <<"still">>),
    io:format("shutdown ~p~n", [socket:recv(C2, 0, 2000)]),
    io:format("bad how ~p~n", [try socket:shutdown(C2, sideways) catch error:E -> E end]),
    [socket:close(S) || S <- [A2, C2, L]],
    io:format("accept closed ~p~n", [socket:accept(L, 10)]).

server(L, Parent) ->
    {ok, A} = socket:accept(L),
    loop(A, Parent).

loop(A, Parent) ->
    case socket:recv(A, 0, 2000) of
        {ok, <<"bye">>} ->
            ok = socket:send(A, <<"last">>),
            ok = socket:close(A),
            Parent ! {self(), done};
        {ok, D} when byte_size(D) < 100 ->
            ok = socket:send(A, D),
            loop(A, Parent);
        {ok, D} ->
            ok = socket:send(A, D),
            loop(A, Parent);
        {error, timeout} ->
            loop(A, Parent)
    end.

send_until_error(_, 0) -> no_error;
send_until_error(S, N) ->
    case socket:send(S, <<"x">>) of
        ok -> timer:sleep(10), send_until_error(S, N - 1);
        {error, R} -> R
    end.
