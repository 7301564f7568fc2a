-module(socket_owner).
%% Sockets of the socket module belong to their controlling process (ADR 0054): when it exits the
%% socket is closed and its descriptor released (counted in /proc/self/fd, only booleans printed), the
%% peer sees the connection close; ownership moves with {otp, controlling_process}, which only the
%% owner may set; a process killed while it waits in recv leaks nothing either.
-export([main/0]).
main() ->
    warm_up(),
    N0 = nfd(),
    Self = self(),
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    %% 1. the owner of a connected socket dies: its fd goes, the peer reads end of stream
    {ok, Peer} = socket:open(inet, stream, tcp),
    ok = socket:connect(Peer, Addr),
    P1 = spawn(fun() -> {ok, A} = socket:accept(L), Self ! {accepted, A}, receive stop -> ok end end),
    A1 = receive {accepted, X} -> X end,
    io:format("open ~p~n", [nfd() =:= N0 + 3]),
    P1 ! stop,
    io:format("peer ~p~n", [socket:recv(Peer, 0, 2000)]),
    io:format("owner gone ~p ~p~n", [wait_fds(N0 + 2), socket:recv(A1, 0, 10)]),
    ok = socket:close(Peer),
    io:format("close releases ~p~n", [nfd() =:= N0 + 1]),
    %% 2. controlling_process moves ownership
    {ok, S} = socket:open(inet, dgram, udp),
    P2 = spawn(fun() -> receive {take, S2} -> Self ! {taken, socket:getopt(S2, {otp, controlling_process})}, receive stop -> ok end end end),
    P3 = spawn(fun() -> Self ! {not_owner, socket:setopt(S, {otp, controlling_process}, self())} end),
    io:format("not owner ~p~n", [receive {not_owner, R3} -> R3 end]),
    ok = socket:setopt(S, {otp, controlling_process}, P2),
    P2 ! {take, S},
    io:format("taken ~p~n", [receive {taken, {ok, P2}} -> true; {taken, Other} -> Other end]),
    io:format("old owner cannot ~p~n", [socket:setopt(S, {otp, controlling_process}, self())]),
    io:format("still open ~p ~p~n", [nfd() =:= N0 + 2, is_process_alive(P3)]),
    P2 ! stop,
    io:format("new owner gone ~p ~p~n", [wait_fds(N0 + 1), socket:recvfrom(S, 0, 10)]),
    %% 3. killed while waiting in recv (the ring has a poll of the fd in flight)
    P4 = spawn(fun() ->
                       {ok, C} = socket:open(inet, stream, tcp),
                       ok = socket:connect(C, Addr),
                       Self ! connected,
                       socket:recv(C, 0, infinity)
               end),
    receive connected -> ok end,
    {ok, A4} = socket:accept(L, 2000),
    timer:sleep(50),
    exit(P4, kill),
    io:format("killed waiter ~p ~p~n", [socket:recv(A4, 0, 2000), wait_fds(N0 + 2)]),
    ok = socket:close(A4),
    %% 4. many sockets of one owner
    P5 = spawn(fun() -> [socket:open(inet, stream, tcp) || _ <- lists:seq(1, 50)], Self ! made, receive stop -> ok end end),
    receive made -> ok end,
    io:format("fifty ~p~n", [nfd() =:= N0 + 51]),
    exit(P5, kill),
    io:format("fifty gone ~p~n", [wait_fds(N0 + 1)]),
    ok = socket:close(L),
    io:format("all gone ~p ~p~n", [wait_fds(N0), length(socket:which_sockets())]).

warm_up() ->
    {ok, W} = socket:open(inet, stream, tcp),
    ok = socket:bind(W, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(W),
    {select, _} = socket:accept(W, nowait),
    socket:close(W).

nfd() -> {ok, Fs} = file:list_dir("/proc/self/fd"), length(Fs).

wait_fds(N) -> wait_fds(N, 100).
wait_fds(N, 0) -> nfd() =:= N;
wait_fds(N, K) ->
    case nfd() of
        N -> true;
        _ -> timer:sleep(20), wait_fds(N, K - 1)
    end.
