-module(bench_udp_echo).
-export([run/0, run/3]).
%% group: io
%% UDP echo on loopback: 20 client/server socket pairs x 2,000 round trips of 64-byte datagrams, passive
%% mode (gen_udp:recv); bench_udp_echo_active runs the same in {active, once} mode.
-bench_runs([2, 3]).
run() -> run(20, 2000, passive).
run(Pairs, Trips, Mode) ->
    Self = self(),
    [spawn_link(fun() -> pair(Trips, Mode), Self ! done end) || _ <- lists:seq(1, Pairs)],
    [receive done -> ok end || _ <- lists:seq(1, Pairs)],
    ok.
pair(Trips, Mode) ->
    Active = case Mode of passive -> false; active -> once end,
    {ok, S} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, SP} = inet:port(S),
    Echo = spawn_link(fun() -> receive go -> ok end, ok = inet:setopts(S, [{active, Active}]), echo(S, Trips, Mode) end),
    ok = gen_udp:controlling_process(S, Echo),
    Echo ! go,
    {ok, C} = gen_udp:open(0, [binary, {active, Active}, {ip, {127,0,0,1}}]),
    Msg = binary:copy(<<"x">>, 64),
    client(C, SP, Msg, Trips, Mode),
    gen_udp:close(C).
client(_, _, _, 0, _) -> ok;
client(C, SP, Msg, N, Mode) ->
    ok = gen_udp:send(C, {127,0,0,1}, SP, Msg),
    {ok, _} = recv(C, Mode),
    client(C, SP, Msg, N - 1, Mode).
echo(S, 0, _) -> gen_udp:close(S);
echo(S, N, Mode) ->
    {ok, {IP, P, D}} = recv(S, Mode),
    ok = gen_udp:send(S, IP, P, D),
    echo(S, N - 1, Mode).
recv(S, passive) ->
    case gen_udp:recv(S, 0) of {ok, {IP, P, D}} -> {ok, {IP, P, D}}; E -> E end;
recv(S, active) ->
    receive {udp, S, IP, P, D} -> ok = inet:setopts(S, [{active, once}]), {ok, {IP, P, D}} end.
