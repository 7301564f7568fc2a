-module(inet_tcp_burst).
%% Many sockets busy at once, then one alone (ADR 0039: the io_uring poll set coalesces its waits
%% while many receives complete, and must go back to waking at the first completion when one
%% exchange is left), and accepts many at once: several acceptors waiting on one listen socket,
%% accept timeouts, closing the listen socket under waiting acceptors, no descriptor left behind.
-export([main/0]).

main() ->
    N0 = nfd(),
    burst(40, 300),
    lone(200),
    burst(60, 50),
    lone(50),
    acceptors(20),
    accept_timeouts(),
    close_under_acceptors(10),
    timer:sleep(300),
    io:format("fds back ~p~n", [nfd() - N0 < 10]),
    io:format("done~n").

%% Conns connections, each Trips passive round trips with sizes 1..300 bytes; every reply checked.
burst(Conns, Trips) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {backlog, 128}]),
    {ok, P} = inet:port(L),
    spawn_link(fun() -> serve(L, Conns) end),
    Self = self(),
    Ps = [spawn_link(fun() -> Self ! {self(), client(P, I, Trips)} end) || I <- lists:seq(1, Conns)],
    Rs = [receive {Pid, R} -> R end || Pid <- Ps],
    gen_tcp:close(L),
    io:format("burst ~p x ~p: ~p~n", [Conns, Trips, lists:usort(Rs)]).

serve(_, 0) -> ok;
serve(L, N) ->
    {ok, S} = gen_tcp:accept(L),
    Pid = spawn(fun() -> receive go -> echo(S) end end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    serve(L, N - 1).

%% Echoes framed messages: a 2-byte length, then that many bytes (recv with a length each).
echo(S) ->
    case gen_tcp:recv(S, 2) of
        {ok, <<Len:16>> = H} ->
            {ok, D} = gen_tcp:recv(S, Len),
            ok = gen_tcp:send(S, [H, D]),
            echo(S);
        {error, closed} -> gen_tcp:close(S)
    end.

client(P, I, Trips) ->
    {ok, S} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}, {nodelay, true}]),
    R = trips(S, I, Trips, ok),
    gen_tcp:close(S),
    R.

trips(_, _, 0, R) -> R;
trips(S, I, K, R) ->
    Len = 1 + (I * 7 + K * 13) rem 300,
    Msg = binary:copy(<<(I rem 256)>>, Len),
    ok = gen_tcp:send(S, [<<Len:16>>, Msg]),
    R1 = case gen_tcp:recv(S, Len + 2, 5000) of
             {ok, <<Len:16, Msg/binary>>} -> R;
             Other -> {bad, Other}
         end,
    trips(S, I, K - 1, R1).

%% One exchange alone right after a burst: every round trip answered, and quickly (a wait for more
%% completions than will come would stall each one).
lone(Trips) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, P} = inet:port(L),
    spawn_link(fun() -> serve(L, 1) end),
    T0 = erlang:monotonic_time(millisecond),
    R = client(P, 7, Trips),
    T = erlang:monotonic_time(millisecond) - T0,
    gen_tcp:close(L),
    io:format("lone ~p: ~p, under 5 s ~p~n", [Trips, R, T < 5000]).

%% N acceptors wait on one listen socket before any connect; N clients then connect at once.
acceptors(N) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}, {backlog, 64}]),
    {ok, P} = inet:port(L),
    Self = self(),
    [spawn(fun() -> Self ! {accepted, accept_echo(L)} end) || _ <- lists:seq(1, N)],
    timer:sleep(100),
    Cs = [begin {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]), C end || _ <- lists:seq(1, N)],
    [ok = gen_tcp:send(C, <<I:32>>) || {I, C} <- lists:zip(lists:seq(1, N), Cs)],
    Echoed = [begin {ok, <<I:32>>} = gen_tcp:recv(C, 4, 5000), I end || C <- Cs],
    Acc = [receive {accepted, R} -> R after 5000 -> timeout end || _ <- lists:seq(1, N)],
    [gen_tcp:close(C) || C <- Cs],
    gen_tcp:close(L),
    io:format("acceptors ~p: echoed ~p, results ~p~n", [N, Echoed =:= lists:seq(1, N), lists:usort(Acc)]).

accept_echo(L) ->
    case gen_tcp:accept(L, 5000) of
        {ok, S} ->
            {ok, D} = gen_tcp:recv(S, 4, 5000),
            ok = gen_tcp:send(S, D),
            ok;
        E -> E
    end.

%% Accept timeouts: zero, short, several at once; the listen socket still accepts afterwards.
accept_timeouts() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, P} = inet:port(L),
    R0 = gen_tcp:accept(L, 0),
    Self = self(),
    [spawn(fun() -> Self ! {t, gen_tcp:accept(L, 30 + 10 * I)} end) || I <- lists:seq(1, 5)],
    Ts = [receive {t, R} -> R after 5000 -> none end || _ <- lists:seq(1, 5)],
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L, 5000),
    ok = gen_tcp:send(C, <<"after">>),
    io:format("accept timeouts ~p ~p ~p~n", [R0, lists:usort(Ts), gen_tcp:recv(S, 5, 5000)]),
    [gen_tcp:close(X) || X <- [C, S, L]].

%% Closing the listen socket while N acceptors wait: each gets {error, closed}; a connect is then refused.
close_under_acceptors(N) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, P} = inet:port(L),
    Self = self(),
    [spawn(fun() -> Self ! {c, gen_tcp:accept(L)} end) || _ <- lists:seq(1, N)],
    timer:sleep(100),
    ok = gen_tcp:close(L),
    Rs = [receive {c, R} -> R after 5000 -> none end || _ <- lists:seq(1, N)],
    io:format("closed under acceptors ~p, connect after ~p~n",
              [lists:usort(Rs), gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}])]).

nfd() -> {ok, L} = file:list_dir("/proc/self/fd"), length(L).
