-module(exit_in_every_state).
-export([main/0]).
%% An exit signal reaches a process in each state it can be in: waiting in a receive (with and
%% without clauses or a timeout), in a gen_server call, blocked on a socket's recv or accept,
%% hibernated, suspended, running a long BIF, running Erlang code. Each is sent kill, an abnormal
%% reason, and (trapping exits) the same reason as a message. What is printed: how it ended, and
%% whether the ports it owned were closed. Races (a message just before the kill, the kill while
%% it runs just before it waits) are repeated; a process that never ends shows as hung.
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, Port} = inet:port(L),
    put(port, Port),
    States = [receive_forever, receive_after, sleep_infinity, sleep_after_message, gen_call,
              tcp_recv, tcp_accept, hibernated, suspended, long_bif, busy_loop, bif_then_sleep],
    [begin
         io:format("~p kill: ~p~n", [S, one(S, kill, false)]),
         io:format("~p reason: ~p~n", [S, one(S, {shutdown, why}, false)]),
         io:format("~p trapped: ~p~n", [S, one(S, {shutdown, why}, true)])
     end || S <- States],
    io:format("races: ~p~n", [lists:usort([race(I) || I <- lists:seq(1, 300)])]),
    io:format("down while running: ~p~n", [down_while_running()]),
    gen_tcp:close(L).

%% Start a process in State, then send it the exit signal; {How it ended, its ports closed?}.
one(State, Reason, Trap) ->
    Me = self(),
    Big = binary:copy(<<"0123456789abcdef">>, 1 bsl 19),
    Port = get(port),
    Server = case State of gen_call -> silent_server(); _ -> undefined end,
    P = spawn(fun() ->
                  process_flag(trap_exit, Trap),
                  Ports = setup(State, Port),
                  Me ! {ready, self(), Ports},
                  enter(State, Ports, Server, Big)
              end),
    M = monitor(process, P),
    Ports = receive {ready, P, Ps} -> Ps end,
    settle(State, P),
    case State of suspended -> erlang:suspend_process(P); _ -> ok end,
    exit(P, Reason),
    Wait = case Trap of true -> 300; false -> 5000 end,
    Result = receive {'DOWN', M, process, P, Why} -> {down, Why}
             after Wait ->
                 %% Still alive: what is in its queue (a trapped exit is a message), then kill it.
                 {messages, Ms} = process_info(P, messages),
                 case State of suspended -> erlang:resume_process(P); _ -> ok end,
                 exit(P, kill),
                 receive {'DOWN', M, _, _, R2} -> {alive, [strip(X) || X <- Ms], then, R2}
                 after 5000 -> unkillable end
             end,
    stop_server(Server),
    {Result, [erlang:port_info(X) =:= undefined || X <- Ports]}.

setup(tcp_recv, Port) ->
    {ok, S} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {active, false}]),
    [S];
setup(tcp_accept, _) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    [L];
setup(_, _) -> [].

enter(receive_forever, _, _, _) -> receive never -> ok end, reporter();
enter(receive_after, _, _, _) -> receive never -> ok after 60000 -> ok end, reporter();
enter(sleep_infinity, _, _, _) -> timer:sleep(infinity);
enter(sleep_after_message, _, _, _) -> timer:sleep(infinity);
enter(gen_call, _, Server, _) -> catch gen_server:call(Server, hello, infinity), reporter();
enter(tcp_recv, [S], _, _) -> _ = gen_tcp:recv(S, 0), reporter();
enter(tcp_accept, [L], _, _) -> _ = gen_tcp:accept(L), reporter();
enter(hibernated, _, _, _) -> erlang:hibernate(erlang, apply, [fun reporter/0, []]);
enter(suspended, _, _, _) -> reporter();
enter(long_bif, _, _, Big) -> _ = [erlang:md5(Big) || _ <- lists:seq(1, 20)], reporter();
enter(busy_loop, _, _, _) -> spin(100000000), reporter();
enter(bif_then_sleep, _, _, Big) -> _ = erlang:md5(Big), timer:sleep(infinity).

reporter() -> receive report -> ok end.

strip({'EXIT', From, R}) when From =:= self() -> {'EXIT', me, R};
strip({'EXIT', _, R}) -> {'EXIT', other, R};
strip(M) -> M.

spin(0) -> ok;
spin(N) -> spin(N - 1).

%% Let the process reach its state; some are reached only after a message.
settle(sleep_after_message, P) -> P ! unrelated, timer:sleep(20);
settle(long_bif, _) -> timer:sleep(5);
settle(busy_loop, _) -> timer:sleep(5);
settle(bif_then_sleep, _) -> timer:sleep(2);
settle(_, P) -> wait_waiting(P, 200).

wait_waiting(_, 0) -> ok;
wait_waiting(P, N) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(5), wait_waiting(P, N - 1)
    end.

silent_server() -> spawn(fun() -> receive stop -> ok end end).
stop_server(undefined) -> ok;
stop_server(S) -> S ! stop.

%% A message then a kill, back to back, to a process in timer:sleep(infinity).
race(_) ->
    P = spawn(timer, sleep, [infinity]),
    M = monitor(process, P),
    P ! ignored,
    exit(P, kill),
    receive {'DOWN', M, process, P, Why} -> Why after 5000 -> hung end.

%% A 'DOWN' sent to a process while it runs a long BIF shows in its queue at once (erts handles
%% the signals sent before a process_info request first).
down_while_running() ->
    Me = self(),
    Big = binary:copy(<<"0123456789abcdef">>, 1 bsl 19),
    P = spawn(fun() ->
        Q = spawn(fun() -> receive go -> ok end end),
        _ = monitor(process, Q),
        Me ! {q, Q},
        receive start -> ok end,
        _ = [erlang:md5(Big) || _ <- lists:seq(1, 40)],
        receive stop -> ok end
    end),
    Q = receive {q, Q0} -> Q0 end,
    P ! start,
    timer:sleep(5),
    Q ! go,
    timer:sleep(100),
    {messages, Ms} = process_info(P, messages),
    R = {process_info(P, message_queue_len), [element(1, X) || X <- Ms]},
    P ! stop,
    R.
