-module(bench_tcp_accept).
%% group: io
-export([run/0]).
%% Accept rate on loopback: 4 client processes each open and close 500 connections in turn
%% (2,000 in all); one acceptor accepts each and closes it. Rate = 2,000 / time.
-bench_runs([2, 3]).
run() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {backlog, 1024}]),
    {ok, Port} = inet:port(L),
    Clients = 4, Each = 500,
    Self = self(),
    spawn_link(fun() -> acceptor(L, Clients * Each), Self ! accepted end),
    [spawn_link(fun() -> client(Port, Each), Self ! done end) || _ <- lists:seq(1, Clients)],
    [receive done -> ok end || _ <- lists:seq(1, Clients)],
    receive accepted -> ok end,
    gen_tcp:close(L).
acceptor(_, 0) -> ok;
acceptor(L, N) ->
    {ok, S} = gen_tcp:accept(L),
    gen_tcp:close(S),
    acceptor(L, N - 1).
client(_, 0) -> ok;
client(Port, N) ->
    {ok, S} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    gen_tcp:close(S),
    client(Port, N - 1).
