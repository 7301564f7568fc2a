%% group: io
%% peer: true
%% Issue 4's "10,000 concurrent connections held and echoing": this node listens and runs one echo
%% process per accepted socket; the 10,000 clients live on a peer node of the same kind (erl with
%% erl, jbeam with jbeam). Two OS processes because one VM holding both ends needs 2 x 10,000
%% descriptors, and this machine's hard limit (ulimit -Hn) is 20,000 and cannot be raised
%% (no CAP_SYS_RESOURCE); split, each VM holds about 10,000.
%% The clients connect in batches of 1,000 (so the backlog never overflows into SYN retries);
%% once all 10,000 are connected and accepted, every client does 5 round trips of 64 bytes at
%% once, then all close and the server sees every close. The time covers all three phases;
%% BENCH_VERBOSE=1 prints each phase's time to stderr.
-module(bench_tcp_10k).
-export([run/0, clients/4]).
-bench_runs([1, 2]).

-define(CONNS, 10000).
-define(TRIPS, 5).
-define(TIMEOUT, 120000).

run() ->
    Peer = bench_peer:node(),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {backlog, 4096}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    T0 = erlang:monotonic_time(millisecond),
    Acceptor = spawn_link(fun() -> acceptor(L, ?CONNS, Self) end),
    C = spawn(Peer, ?MODULE, clients, [Self, Port, ?CONNS, ?TRIPS]),
    Mon = monitor(process, C),
    wait({C, connected}, Mon),
    wait({Acceptor, accepted}, Mon),
    T1 = erlang:monotonic_time(millisecond),
    C ! go,
    wait({C, echoed}, Mon),
    T2 = erlang:monotonic_time(millisecond),
    C ! close,
    wait({C, closed}, Mon),
    demonitor(Mon, [flush]),            % the client node's coordinator ends here
    [wait(echo_closed, Mon) || _ <- lists:seq(1, ?CONNS)],
    T3 = erlang:monotonic_time(millisecond),
    ok = gen_tcp:close(L),
    case os:getenv("BENCH_VERBOSE") of
        false -> ok;
        _ -> io:format(standard_error, "tcp_10k: connect ~w ms, echo ~w ms, close ~w ms~n",
                       [T1 - T0, T2 - T1, T3 - T2])
    end,
    ok.

wait(Msg, Mon) ->
    receive
        Msg -> ok;
        {'DOWN', Mon, _, _, R} -> error({clients_down, R})
    after ?TIMEOUT -> error({timeout, Msg})
    end.

acceptor(_, 0, Parent) -> Parent ! {self(), accepted};
acceptor(L, N, Parent) ->
    {ok, S} = gen_tcp:accept(L),
    Pid = spawn(fun() -> receive go -> echo(S, Parent) end end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    acceptor(L, N - 1, Parent).

echo(S, Parent) ->
    case gen_tcp:recv(S, 64) of
        {ok, D} -> ok = gen_tcp:send(S, D), echo(S, Parent);
        {error, closed} -> gen_tcp:close(S), Parent ! echo_closed
    end.

%% Runs on the peer: starts the clients, then relays go / close from the main node.
clients(Main, Port, Conns, Trips) ->
    Self = self(),
    Pids = lists:append([batch(Self, Port, Trips, min(1000, Conns - I))
                         || I <- lists:seq(0, Conns - 1, 1000)]),
    Main ! {Self, connected},
    receive go -> ok end,
    [P ! go || P <- Pids],
    [receive {P, echoed} -> ok end || P <- Pids],
    Main ! {Self, echoed},
    receive close -> ok end,
    [P ! close || P <- Pids],
    [receive {P, closed} -> ok end || P <- Pids],
    Main ! {Self, closed}.

batch(Parent, Port, Trips, N) ->
    Pids = [spawn_link(fun() -> client(Parent, Port, Trips) end) || _ <- lists:seq(1, N)],
    [receive {P, connected} -> ok end || P <- Pids],
    Pids.

client(Parent, Port, Trips) ->
    {ok, S} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {nodelay, true}]),
    Parent ! {self(), connected},
    Msg = binary:copy(<<"x">>, 64),
    receive go -> ok end,
    [begin ok = gen_tcp:send(S, Msg), {ok, Msg} = gen_tcp:recv(S, 64) end || _ <- lists:seq(1, Trips)],
    Parent ! {self(), echoed},
    receive close -> ok end,
    ok = gen_tcp:close(S),
    Parent ! {self(), closed}.
