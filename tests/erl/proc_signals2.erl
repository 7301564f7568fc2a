-module(proc_signals2).
%% Exit-signal corner cases, process_info items, group_leader/2, send options, aliases,
%% erlang:hibernate/3. Pids are printed only as "self"/"other"/"pid" markers.
-export([main/0, wake/1]).

show(X) -> io:format("~p~n", [X]).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.

main() ->
    exits(),
    links(),
    monitors(),
    infos(),
    group_leaders(),
    sends(),
    aliases(),
    hibernation(),
    ok.

idle() -> receive after infinity -> ok end.
%% Returns once P is dead.
sync(P) -> Ref = monitor(process, P), receive {'DOWN', Ref, process, P, _} -> ok end.
%% Until F() is true (polled; both VMs get there, at their own pace).
until(F) -> until(F, 2000).
until(_, 0) -> timeout;
until(F, N) -> case F() of true -> ok; false -> timer:sleep(2), until(F, N - 1) end.
%% Pids replaced by the atom pid: what a queue held without its pids.
anon(P) when is_pid(P) -> pid;
anon(L) when is_list(L) -> [anon(X) || X <- L];
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon(X) -> X.
flush() -> receive M -> [M | flush()] after 0 -> [] end.

exits() ->
    Me = self(),
    %% exit(self(), normal) kills a process that does not trap exits (unlike exit(normal) it is a signal).
    {P1, M1} = spawn_monitor(fun() -> exit(self(), normal), Me ! survived, idle() end),
    show(receive {'DOWN', M1, process, P1, R1} -> {self_normal, R1}; survived -> survived end),
    {P2, M2} = spawn_monitor(fun() -> process_flag(trap_exit, true), exit(self(), normal),
                                      receive {'EXIT', Me2, normal} -> Me ! {trapped, Me2 =:= self()} end end),
    show(receive {trapped, B} -> {trapped_self_normal, B} end),
    receive {'DOWN', M2, process, P2, _} -> ok end,
    %% exit(self(), kill) is killed even when trapping; the reason seen by others is killed.
    {P3, M3} = spawn_monitor(fun() -> process_flag(trap_exit, true), exit(self(), kill), idle() end),
    show(receive {'DOWN', M3, process, P3, R3} -> {self_kill, R3} end),
    %% exit/2 with kill from another process: killed; a trapped 'kill' from a link is only a message.
    process_flag(trap_exit, true),
    P4 = spawn_link(fun() -> exit(kill) end),
    show(receive {'EXIT', P4, R4} -> {linked_exit_kill, R4} end),
    {P5, M5} = spawn_monitor(fun() -> process_flag(trap_exit, true), Me ! ready, receive X -> Me ! {got, X} end end),
    receive ready -> ok end,
    L5 = spawn(fun() -> link(P5), exit(kill) end),
    show(receive {got, {'EXIT', L5x, R5}} -> {linked_exit_kill_trapped, L5x =:= L5, R5}; {got, O} -> O end),
    receive {'DOWN', M5, process, P5, _} -> ok end,
    %% Exit reasons of any term, including a bad arg to exit/2.
    show(t(fun() -> exit(foo, bar) end)),
    show(t(fun() -> exit(self(), normal), still_here end)),
    show(anon(flush())),
    process_flag(trap_exit, false),
    ok.

links() ->
    process_flag(trap_exit, true),
    Dead = spawn(fun() -> ok end),
    sync(Dead),
    show({link_dead, link(Dead)}),
    show(receive {'EXIT', Dead, R} -> {got_exit, R} after 100 -> none end),
    show(t(fun() -> link(list_to_pid("<0.9999.0>")) end)),
    show(t(fun() -> link(foo) end)),
    show(t(fun() -> unlink(foo) end)),
    %% unlink removes an EXIT message that is already in the queue? No: OTP leaves it. Check it.
    Me = self(),
    P = spawn(fun() -> link(Me), Me ! linked, receive go -> exit(bye) end end),
    receive linked -> ok end,
    P ! go,
    sync(P),
    ok = until(fun() -> lists:member({'EXIT', P, bye}, element(2, process_info(self(), messages))) end),
    show({unlink, unlink(P)}),
    show(receive {'EXIT', P, Why} -> {pending_exit_kept, Why} after 50 -> pending_exit_removed end),
    %% Link then unlink before the other dies: no message.
    Q = spawn(fun() -> receive go -> exit(bye) end end),
    link(Q), unlink(Q), Q ! go, sync(Q),
    show(receive {'EXIT', Q, _} -> exit_after_unlink after 50 -> no_exit end),
    %% Double link is one link.
    R2 = spawn(fun() -> receive go -> exit(twice) end end),
    link(R2), link(R2),
    show({links, length(element(2, process_info(self(), links)))}),
    R2 ! go,
    show(flush_exits(R2)),
    process_flag(trap_exit, false),
    ok.

%% Until the 'DOWN' for Ref is in our queue (not taken): demonitor then finds the monitor gone.
wait_queued(Ref) ->
    {messages, Ms} = process_info(self(), messages),
    case lists:keymember(Ref, 2, Ms) of
        true -> ok;
        false -> timer:sleep(5), wait_queued(Ref)
    end.

flush_exits(P) -> receive {'EXIT', P, W} -> [W | flush_exits(P)] after 50 -> [] end.

monitors() ->
    %% Monitor by registered name: alive and dead.
    P = spawn(fun() -> receive go -> exit(done) end end),
    register(ps2_target, P),
    M = monitor(process, ps2_target),
    show(process_info(self(), monitors) =:= {monitors, [{process, {ps2_target, node()}}]}),
    show(process_info(P, monitored_by) =:= {monitored_by, [self()]}),
    P ! go,
    show(receive {'DOWN', M, process, Who, R} -> {named_down, Who =:= {ps2_target, node()}, R} end),
    M2 = monitor(process, {ps2_target, node()}),
    show(receive {'DOWN', M2, process, Who2, R2} -> {named_dead, Who2 =:= {ps2_target, node()}, R2} end),
    %% demonitor variants.
    Q = spawn(fun idle/0),
    M3 = monitor(process, Q),
    show(process_info(self(), monitors) =:= {monitors, [{process, Q}]}),
    show(demonitor(M3, [info])),
    show(demonitor(M3, [info])),
    show(demonitor(M3)),
    M4 = monitor(process, Q),
    exit(Q, kill),
    wait_queued(M4),
    show(demonitor(M4, [info])),
    show(receive {'DOWN', M4, _, _, _} -> down_still_there after 0 -> no_down end),
    Q2 = spawn(fun idle/0),
    M5 = monitor(process, Q2),
    exit(Q2, kill),
    wait_queued(M5),
    show(demonitor(M5, [flush, info])),
    show(receive {'DOWN', M5, _, _, _} -> down_still_there after 0 -> flushed end),
    show(t(fun() -> demonitor(M5, [bad]) end)),
    show(t(fun() -> demonitor(foo) end)),
    show(t(fun() -> monitor(process, 42) end)),
    show(t(fun() -> monitor(thing, self()) end)),
    %% Monitoring yourself: never fires while alive.
    M6 = monitor(process, self()),
    show(demonitor(M6, [info])),
    %% Tagged monitors (OTP 24 tag option).
    Q3 = spawn(fun() -> receive go -> exit(tagged) end end),
    _ = monitor(process, Q3, [{tag, my_down}]),
    Q3 ! go,
    show(receive {my_down, _, process, _, R3} -> {tagged, R3} end),
    ok.

infos() ->
    Me = self(),
    P = spawn(fun() ->
                      register(ps2_info, self()),
                      put(a, 1), put(b, 2),
                      process_flag(trap_exit, true),
                      link(Me),
                      Me ! ready,
                      receive stop -> ok end
              end),
    receive ready -> ok end,
    P ! m1, P ! m2,
    M = monitor(process, P),
    show(process_info(P, message_queue_len)),
    show(process_info(P, registered_name)),
    show(process_info(P, trap_exit)),
    show(lists:sort(element(2, process_info(P, dictionary)))),
    show(process_info(P, links) =:= {links, [Me]}),
    show(process_info(P, monitored_by) =:= {monitored_by, [Me]}),
    show(process_info(P, monitors)),
    %% P wakes for m1, m2 and waits again; jbeam reads another process's mailbox without stopping
    %% it, so wait until P has taken them in.
    ok = until(fun() -> process_info(P, [status, messages]) =:= [{status, waiting}, {messages, [m1, m2]}] end),
    show(process_info(P, status)),
    show(process_info(P, current_function)),
    show(process_info(P, messages)),
    show(process_info(P, [message_queue_len, trap_exit, registered_name])),
    show(process_info(self(), registered_name)),
    show(process_info(self(), [registered_name])),
    show(process_info(self(), status)),
    show(process_info(self(), current_function)),
    show(t(fun() -> process_info(P, no_such_item) end)),
    show(t(fun() -> process_info(foo, status) end)),
    show(t(fun() -> process_info(P, [status | bad]) end)),
    show(lists:sort([K || {K, _} <- process_info(P)])),
    show(is_integer(element(2, process_info(P, memory)))),
    show(element(1, process_info(P, initial_call))),
    show(process_info(P, priority)),
    P ! stop,
    receive {'DOWN', M, process, P, _} -> ok end,
    show(process_info(P, status)),
    show(process_info(P, [status])),
    show(process_info(P)),
    unlink(P),
    ok.

group_leaders() ->
    Me = self(),
    GL = group_leader(),
    P = spawn(fun() -> receive {gl, From} -> From ! {gl_is, group_leader()} end end),
    show(group_leader(Me, P)),
    P ! {gl, Me},
    show(receive {gl_is, G} -> G =:= Me end),
    Q = spawn(fun() -> receive _ -> ok end end),
    show(process_info(Q, group_leader) =:= {group_leader, GL}),
    show(t(fun() -> group_leader(foo, Q) end)),
    show(t(fun() -> group_leader(Me, foo) end)),
    Dead = spawn(fun() -> ok end),
    sync(Dead),
    show(t(fun() -> group_leader(Me, Dead) end)),
    %% A child inherits its parent's group leader.
    R = spawn(fun() -> group_leader(Me, self()),
                       spawn(fun() -> Me ! {inherited, group_leader() =:= Me} end) end),
    show(receive {inherited, B} -> B end),
    exit(Q, kill),
    _ = R,
    ok.

sends() ->
    Me = self(),
    show(erlang:send(Me, a, [noconnect])),
    show(erlang:send(Me, b, [nosuspend])),
    show(erlang:send(Me, c, [noconnect, nosuspend])),
    show(erlang:send(Me, d, [])),
    show(t(fun() -> erlang:send(Me, e, [bad]) end)),
    show(t(fun() -> erlang:send(Me, e, bad) end)),
    show(t(fun() -> erlang:send(no_such_ps2, e, [noconnect]) end)),
    show(erlang:send({no_such_ps2, 'other@nohost'}, e, [noconnect])),
    show(erlang:send_nosuspend(Me, f)),
    show(erlang:send_nosuspend(Me, g, [noconnect])),
    show(t(fun() -> erlang:send_nosuspend(no_such_ps2, g) end)),
    show(erlang:send_nosuspend({no_such_ps2, 'other@nohost'}, h, [noconnect])),
    show(t(fun() -> erlang:send_nosuspend(Me, h, [bad]) end)),
    show(anon(flush())),
    ok.

aliases() ->
    Me = self(),
    A = alias(),
    A ! via_alias,
    show(receive via_alias -> got_alias after 100 -> none end),
    show(unalias(A)),
    show(unalias(A)),
    A ! after_unalias,
    show(receive after_unalias -> delivered after 50 -> dropped end),
    %% explicit_unalias: stays active after a message.
    A2 = alias([explicit_unalias]),
    A2 ! m1, A2 ! m2,
    show([receive X -> X after 100 -> none end || _ <- [1, 2]]),
    show(unalias(A2)),
    %% reply: the alias dies after the first message.
    A3 = alias([reply]),
    A3 ! r1, A3 ! r2,
    show([receive X -> X after 50 -> none end || _ <- [1, 2]]),
    show(unalias(A3)),
    %% monitor with alias: reply_demonitor removes the monitor and alias on the first reply.
    P = spawn(fun() -> receive {req, To} -> To ! {resp, 1}, To ! {resp, 2}, idle() end end),
    Mref = monitor(process, P, [{alias, reply_demonitor}]),
    P ! {req, Mref},
    show([receive {resp, N} -> N after 100 -> none end || _ <- [1, 2]]),
    show(demonitor(Mref, [info])),
    %% alias demonitor: the alias dies with the monitor.
    Mref2 = monitor(process, P, [{alias, demonitor}]),
    Mref2 ! before_demonitor,
    show(receive before_demonitor -> kept after 50 -> none end),
    demonitor(Mref2),
    Mref2 ! after_demonitor,
    show(receive after_demonitor -> delivered after 50 -> dropped end),
    %% explicit_unalias monitor alias survives the DOWN.
    Mref3 = monitor(process, P, [{alias, explicit_unalias}]),
    exit(P, kill),
    show(receive {'DOWN', Mref3, process, _, R} -> R end),
    Mref3 ! still_alias,
    show(receive still_alias -> delivered after 50 -> dropped end),
    show(unalias(Mref3)),
    show(t(fun() -> alias([bad]) end)),
    show(t(fun() -> unalias(foo) end)),
    show(t(fun() -> monitor(process, Me, [{alias, bad}]) end)),
    show(anon(flush())),
    ok.

hibernation() ->
    Me = self(),
    P = spawn(fun() -> put(kept, yes), erlang:hibernate(?MODULE, wake, [Me]) end),
    ok = until(fun() -> process_info(P, current_function) =:= {current_function, {erlang, hibernate, 3}} end),
    show(process_info(P, [current_function, status, message_queue_len])),
    P ! hello,
    show(receive {woke, M, D} -> {M, D} after 1000 -> none end),
    show(t(fun() -> erlang:hibernate(foo, bar, baz) end)),
    show(t(fun() -> erlang:hibernate("m", bar, []) end)),
    ok.

wake(Me) ->
    receive M -> Me ! {woke, M, get(kept)} end.
