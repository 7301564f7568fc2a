-module(conns_mem).
-export([main/1]).
%% Memory of held connections (issue 4, ADR 0062), run by bench/conns_mem: N connections with both
%% ends in this VM; each client sends Size bytes (default 64), its server process echoes them, then both ends wait
%% in gen_tcp:recv(S, 0) (a receive armed on each). Prints the growth of the process's resident set
%% (VmRSS) per connection, measured before the connections and once they all wait.
main([NStr]) -> main([NStr, "64"]);
main([NStr, SizeStr]) ->
    N = list_to_integer(NStr), Size = list_to_integer(SizeStr),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {backlog, 4096}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    spawn_link(fun() -> acceptor(L, N) end),
    _ = rss(), timer:sleep(200),
    R0 = rss(),
    T0 = erlang:monotonic_time(millisecond),
    [batch(Self, Port, Size, min(1000, N - I)) || I <- lists:seq(0, N - 1, 1000)],
    T1 = erlang:monotonic_time(millisecond),
    timer:sleep(1000),
    R1 = rss(),
    io:format("~p connections held (~p-byte exchange, both ends waiting in recv), set up in ~p ms: RSS ~p MiB -> ~p MiB, ~p bytes per connection~n",
              [N, Size, T1 - T0, R0 div 1048576, R1 div 1048576, (R1 - R0) div N]),
    halt().
batch(Self, Port, Size, K) ->
    Pids = [spawn(fun() -> client(Self, Port, Size) end) || _ <- lists:seq(1, K)],
    [receive {waiting, P} -> ok end || P <- Pids].
acceptor(_, 0) -> receive stop -> ok end;
acceptor(L, N) ->
    {ok, S} = gen_tcp:accept(L),
    Pid = spawn(fun() -> receive go -> echo(S) end end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    acceptor(L, N - 1).
echo(S) ->
    case gen_tcp:recv(S, 0) of
        {ok, D} -> gen_tcp:send(S, D), echo(S);
        {error, _} -> gen_tcp:close(S)
    end.
client(Parent, Port, Size) ->
    {ok, S} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}, {nodelay, true}]),
    ok = gen_tcp:send(S, binary:copy(<<"x">>, Size)),
    {ok, _} = gen_tcp:recv(S, Size),
    Parent ! {waiting, self()},
    gen_tcp:recv(S, 0).
rss() ->
    [erlang:garbage_collect(P) || P <- processes()],
    {ok, B} = file:read_file("/proc/self/status"),
    {match, [KB]} = re:run(B, "VmRSS:\\s*([0-9]+) kB", [{capture, all_but_first, list}]),
    list_to_integer(KB) * 1024.
