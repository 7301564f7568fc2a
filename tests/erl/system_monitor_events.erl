-module(system_monitor_events).
%% The events erlang:system_monitor/2 sends (ADR 0065): long_schedule for a process that a NIF
%% keeps on its scheduler past the limit (jbeam_test_nif:block_ms/1 sleeps without yielding), in
%% erts' message shape (where the slice began and ended), not for processes that stay under it;
%% nothing once the monitor is turned off. A gen_tcp sender blocked on a peer that does not read
%% gets no busy_port event: in OTP 25 it waits for its inet_reply, it is not suspended on the port.
-export([main/0]).
main() ->
    {module, _} = code:ensure_loaded(jbeam_test_nif),
    long_schedule(),
    busy_port(),
    off(),
    ok.

long_schedule() ->
    erlang:system_monitor(self(), [{long_schedule, 150}]),
    Quick = spawn(fun() -> jbeam_test_nif:block_ms(10) end),
    Slow = spawn(fun() -> blocker(400) end),
    Ev = receive {monitor, Slow, long_schedule, I} -> I after 5000 -> timeout end,
    io:format("long_schedule event: ~p~n", [shape(Ev)]),
    Slow ! stop,
    %% a process that was running before: its slice begins where it was waiting
    Waiter = spawn(fun() -> receive go -> blocker(400) end end),
    timer:sleep(50),
    Waiter ! go,
    Ev2 = receive {monitor, Waiter, long_schedule, I2} -> I2 after 5000 -> timeout end,
    io:format("long_schedule event: ~p~n", [shape(Ev2)]),
    Waiter ! stop,
    io:format("quick process reported: ~p~n", [flush(Quick)]),
    erlang:system_monitor(undefined).

blocker(Ms) -> jbeam_test_nif:block_ms(Ms), receive stop -> done end.

shape([{timeout, T}, {in, In}, {out, Out}]) when is_integer(T) ->
    {timeout_at_least_400, T >= 400, in, mfa(In), out, mfa(Out)};
shape(Other) -> Other.

mfa({?MODULE, F, A}) -> {F, A};
mfa({M, F, A}) when is_atom(M), is_atom(F), is_integer(A) -> mfa;
mfa(X) -> X.

flush(Pid) ->
    receive {monitor, Pid, _, _} = M -> M after 200 -> none end.

busy_port() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}, {send_timeout, 5000}]),
    {ok, S} = gen_tcp:accept(L),
    erlang:system_monitor(self(), [busy_port]),
    Self = self(),
    Sender = spawn(fun() ->
                       Big = binary:copy(<<"b">>, 65536),
                       R = send_until_error(C, Big, 200),
                       Self ! {sender_done, R}
                   end),
    ok = gen_tcp:controlling_process(C, Sender),
    Ev = receive {monitor, Who, busy_port, Port} -> {Who =:= Sender, Port =:= C} after 1000 -> none end,
    io:format("busy_port event: ~p~n", [Ev]),
    Drained = drain(S, 0),
    io:format("sender: ~p~n", [receive {sender_done, R} -> R after 10000 -> timeout end]),
    io:format("drained at least 1 MB: ~p~n", [Drained >= 1000000]),
    erlang:system_monitor(undefined),
    gen_tcp:close(S), gen_tcp:close(L).

send_until_error(_, _, 0) -> ok;
send_until_error(C, B, N) ->
    case gen_tcp:send(C, B) of
        ok -> send_until_error(C, B, N - 1);
        E -> E
    end.

drain(S, N) ->
    case gen_tcp:recv(S, 0, 1000) of
        {ok, B} -> drain(S, N + byte_size(B));
        {error, _} -> N
    end.

off() ->
    erlang:system_monitor(self(), [{long_schedule, 50}]),
    erlang:system_monitor(undefined),
    Pid = spawn(fun() -> blocker(150) end),
    timer:sleep(400),
    io:format("after turning off: ~p~n", [flush(Pid)]).
