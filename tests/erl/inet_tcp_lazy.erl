-module(inet_tcp_lazy).
%% Accepted sockets are watched by the poll set only once someone waits on them (ADR 0007): one that is
%% closed without ever waiting releases its descriptor at once, and one that starts waiting late (recv,
%% setopts to an active mode) still sees data and closes the peer sent meanwhile. Also: a second recv
%% while one waits is {error, ealready}.
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, P} = inet:port(L),
    %% 1. accept + close with no wait: the fd is gone when close returns
    {ok, C1} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    N0 = nfd(),
    {ok, S1} = gen_tcp:accept(L),
    N1 = nfd(),
    ok = gen_tcp:close(S1),
    N2 = nfd(),
    io:format("fds ~p ~p~n", [N1 - N0, N2 - N0]),
    io:format("peer sees ~p~n", [gen_tcp:recv(C1, 0, 2000)]),
    gen_tcp:close(C1),
    %% 2. data and close sent before the first recv
    {ok, C2} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S2} = gen_tcp:accept(L),
    ok = gen_tcp:send(C2, <<"early">>),
    ok = gen_tcp:close(C2),
    timer:sleep(50),
    io:format("recv ~p~n", [gen_tcp:recv(S2, 0, 2000)]),
    io:format("recv ~p~n", [gen_tcp:recv(S2, 0, 2000)]),
    gen_tcp:close(S2),
    %% 3. active once set late
    {ok, C3} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S3} = gen_tcp:accept(L),
    ok = gen_tcp:send(C3, <<"late">>),
    timer:sleep(50),
    ok = inet:setopts(S3, [{active, once}]),
    io:format("got ~p~n", [receive {tcp, S3, D} -> D after 2000 -> timeout end]),
    ok = gen_tcp:close(C3),
    ok = inet:setopts(S3, [{active, once}]),
    io:format("got ~p~n", [receive {tcp_closed, S3} -> closed after 2000 -> timeout end]),
    %% 4. a recv that waits, then data
    {ok, C4} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S4} = gen_tcp:accept(L),
    Self = self(),
    spawn(fun() -> Self ! {r, gen_tcp:recv(S4, 0, 2000)} end),
    timer:sleep(50),
    ok = gen_tcp:send(C4, <<"waited">>),
    io:format("waited ~p~n", [receive {r, R} -> R after 3000 -> timeout end]),
    io:format("timeout ~p~n", [gen_tcp:recv(S4, 0, 20)]),
    %% a second recv while one waits (another process): ealready, erts keeps one recv per socket
    spawn(fun() -> Self ! {r, gen_tcp:recv(S4, 0, 2000)} end),
    timer:sleep(50),
    io:format("second ~p~n", [gen_tcp:recv(S4, 0, 2000)]),
    ok = gen_tcp:send(C4, <<"first">>),
    io:format("first ~p~n", [receive {r, R1} -> R1 after 3000 -> timeout end]),
    gen_tcp:close(C4), gen_tcp:close(S4),
    gen_tcp:close(L).
nfd() -> {ok, Fs} = file:list_dir("/proc/self/fd"), length(Fs).
