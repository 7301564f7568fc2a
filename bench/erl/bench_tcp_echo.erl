-module(bench_tcp_echo).
-export([run/0, run/2]).
%% group: io
%% TCP echo on loopback: 50 connections x 200 round trips of 64 bytes, passive mode
%% (bench_tcp_echo4k runs the issue's 50 x 4,000).
run() -> run(50, 200).
run(Conns, Trips) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {backlog, 128}]),
    {ok, Port} = inet:port(L),
    spawn_link(fun() -> acceptor(L, Conns) end),
    Self = self(),
    [spawn_link(fun() -> client(Port, Trips), Self ! done end) || _ <- lists:seq(1, Conns)],
    [receive done -> ok end || _ <- lists:seq(1, Conns)],
    gen_tcp:close(L).
acceptor(_, 0) -> ok;
acceptor(L, N) ->
    {ok, S} = gen_tcp:accept(L),
    Pid = spawn(fun() -> receive go -> echo(S) end end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    acceptor(L, N - 1).
echo(S) ->
    case gen_tcp:recv(S, 64) of
        {ok, D} -> gen_tcp:send(S, D), echo(S);
        {error, _} -> gen_tcp:close(S)
    end.
client(Port, Trips) ->
    {ok, S} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {nodelay, true}]),
    Msg = binary:copy(<<"x">>, 64),
    [begin ok = gen_tcp:send(S, Msg), {ok, _} = gen_tcp:recv(S, 64) end || _ <- lists:seq(1, Trips)],
    gen_tcp:close(S).
