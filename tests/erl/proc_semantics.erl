-module(proc_semantics).
%% Exit-signal semantics as OTP: kill -> killed, normal does not kill a non-trapping process,
%% trapped exits become messages, links to dead processes, monitors on dead processes, timers.
-export([main/0]).
main() ->
    process_flag(trap_exit, true),
    A = spawn_link(fun() -> receive after infinity -> ok end end),
    exit(A, kill),
    show(receive {'EXIT', A, R1} -> {exit_kill, R1} end),
    B = spawn(fun() -> receive after infinity -> ok end end),
    exit(B, normal),
    timer:sleep(5),
    show({normal_does_not_kill, is_process_alive(B)}),
    exit(B, shutdown),
    wait_until(fun() -> not is_process_alive(B) end),
    show({shutdown_kills, is_process_alive(B)}),
    Me = self(),
    C = spawn(fun() -> process_flag(trap_exit, true), Me ! ready, receive {'EXIT', _, Why} -> exit({trapped, Why}) end end),
    receive ready -> ok end,
    Mc = monitor(process, C),
    exit(C, normal),
    show(receive {'DOWN', Mc, process, C, R2} -> R2 end),
    Dead = spawn(fun() -> ok end),
    wait_until(fun() -> not is_process_alive(Dead) end),
    show(catch link(Dead)),
    show(receive {'EXIT', Dead, R3} -> {link_dead, R3} after 100 -> no_exit end),
    Md = monitor(process, Dead),
    show(receive {'DOWN', Md, process, Dead, R4} -> {monitor_dead, R4} end),
    show(demonitor(monitor(process, self()), [info])),
    Mn = monitor(process, no_such_name),
    show(receive {'DOWN', Mn, process, N, R5} -> {by_name, N, R5} end),
    T1 = erlang:send_after(50, self(), t1),
    show(is_integer(erlang:read_timer(T1))),
    show(is_integer(erlang:cancel_timer(T1))),
    show(erlang:cancel_timer(T1)),
    T2 = erlang:start_timer(10, self(), t2),
    show(receive {timeout, T2, t2} -> start_timer_ok end),
    show(receive after 0 -> after_zero end),
    self() ! m1, self() ! m2, self() ! m3,
    show(receive m2 -> got_m2 end),
    show(erlang:process_info(self(), message_queue_len)),
    show([receive M -> M end, receive M2 -> M2 end]),
    register(procsem, self()),
    show(whereis(procsem) =:= self()),
    show(element(1, element(2, catch register(procsem, self())))),
    unregister(procsem),
    show(whereis(procsem)),
    show(element(1, element(2, catch unregister(procsem)))),
    P = spawn(fun() -> put(k, v), receive go -> ok end end),
    wait_until(fun() -> process_info(P, status) =:= {status, waiting} end),
    show(element(2, process_info(P, dictionary))),
    show(process_info(P, status)),
    P ! go,
    wait_until(fun() -> not is_process_alive(P) end),
    show(process_info(P, status)),
    show(catch erlang:exit(self(), {shutdown, bye})),
    show(receive {'EXIT', _, {shutdown, bye}} -> exit_self_trapped end),
    ok.
show(X) -> io:format("~p~n", [X]).

%% Fixed sleeps were too short on a loaded machine (a spawned process had not run or exited yet).
wait_until(F) ->
    case F() of
        true -> ok;
        false -> timer:sleep(1), wait_until(F)
    end.
