-module(bench_tcp_conns).
%% group: io
-export([run/0]).
%% Many concurrent connections, held and echoing: Conns client processes connect (in batches of
%% 1,000, so the listen backlog never overflows into SYN retries), each with its own echo process on
%% the server side; once all are connected every client does 10 round trips of 64 bytes, then all
%% close. Both ends live in this VM, so Conns connections take 2 x Conns descriptors: the machine's
%% hard limit of 20,000 (ulimit -Hn, not raisable here) caps it at 9,000 rather than issue 4's 10,000.
-bench_runs([1, 1]).
run() ->
    Conns = 9000, Trips = 10,
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {backlog, 4096}]),
    {ok, Port} = inet:port(L),
    spawn_link(fun() -> acceptor(L, Conns) end),
    Self = self(),
    Pids = lists:append([batch(Self, Port, Trips, 1000) || _ <- lists:seq(1, Conns div 1000)]),
    [P ! go || P <- Pids],
    [receive done -> ok end || _ <- Pids],
    [P ! close || P <- Pids],
    [receive closed -> ok end || _ <- Pids],
    gen_tcp:close(L).
batch(Self, Port, Trips, N) ->
    Pids = [spawn_link(fun() -> client(Self, Port, Trips) end) || _ <- lists:seq(1, N)],
    [receive connected -> ok end || _ <- Pids],
    Pids.
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
client(Parent, Port, Trips) ->
    {ok, S} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {nodelay, true}]),
    Parent ! connected,
    Msg = binary:copy(<<"x">>, 64),
    receive go -> ok end,
    [begin ok = gen_tcp:send(S, Msg), {ok, _} = gen_tcp:recv(S, 64) end || _ <- lists:seq(1, Trips)],
    Parent ! done,
    receive close -> ok end,
    gen_tcp:close(S),
    Parent ! closed.
