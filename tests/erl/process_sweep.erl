-module(process_sweep).
-export([main/0]).
%% Process semantics against erl: exit signals and trap_exit, link/monitor edges, registered names,
%% process_info items, timers, spawn_opt errors, group leaders, error reasons as seen by catchers.
main() ->
    %% The crash reports of the failing cases would land between the lines at a time-dependent
    %% place; crash_report.erl checks them.
    ok = logger:set_primary_config(level, none),
    T = [
     {exit_normal_linked, fun() -> process_flag(trap_exit, true), P = spawn_link(fun() -> ok end), receive {'EXIT', P, R} -> R after 1000 -> timeout end end},
     {exit_kill, fun() -> process_flag(trap_exit, true), P = spawn_link(fun() -> receive _ -> ok end end), exit(P, kill), receive {'EXIT', P, R} -> R after 1000 -> timeout end end},
     {exit_self_kill_trapped, fun() -> process_flag(trap_exit, true), P = spawn_link(fun() -> exit(kill) end), receive {'EXIT', P, R} -> R after 1000 -> timeout end end},
     {exit_badarg_link, fun() -> process_flag(trap_exit, true), P = spawn_link(fun() -> error(badarg) end), receive {'EXIT', P, {R, _}} -> R after 1000 -> timeout end end},
     {exit_normal_to_other, fun() -> P = spawn(fun() -> receive _ -> ok end end), exit(P, normal), timer:sleep(20), is_process_alive(P) end},
     {exit_trapped_signal, fun() -> Me = self(), P = spawn(fun() -> process_flag(trap_exit, true), Me ! ready, receive M -> Me ! {got, M} end end), receive ready -> ok end, exit(P, foo), receive {got, M} -> M after 1000 -> timeout end end},
     {link_dead, fun() -> process_flag(trap_exit, true), P = spawn(fun() -> ok end), timer:sleep(20), link(P), receive {'EXIT', P, R} -> R after 500 -> timeout end end},
     {link_bad, fun() -> link(not_a_pid) end},
     {unlink_self, fun() -> unlink(self()) end},
     {monitor_dead, fun() -> P = spawn(fun() -> ok end), timer:sleep(20), Ref = monitor(process, P), receive {'DOWN', Ref, process, P, R} -> R after 500 -> timeout end end},
     {monitor_name_missing, fun() -> Ref = monitor(process, no_such_registered_name), receive {'DOWN', Ref, process, Who, R} -> {Who, R} after 500 -> timeout end end},
     {monitor_bad, fun() -> monitor(process, 42) end},
     {monitor_port_bad, fun() -> monitor(port, self()) end},
     {demonitor_flush, fun() -> P = spawn(fun() -> ok end), Ref = monitor(process, P), timer:sleep(20), {demonitor(Ref, [flush, info]), receive {'DOWN', Ref, _, _, _} -> still_there after 0 -> flushed end} end},
     {demonitor_bad_opt, fun() -> demonitor(make_ref(), [bogus]) end},
     {register_twice, fun() -> register(sweep_name, self()), R = catch register(sweep_name, self()), unregister(sweep_name), R end},
     {register_undefined, fun() -> register(undefined, self()) end},
     {register_dead, fun() -> P = spawn(fun() -> ok end), timer:sleep(20), register(sweep_dead, P) end},
     {unregister_missing, fun() -> unregister(no_such_name_here) end},
     {whereis_missing, fun() -> whereis(no_such_name_here) end},
     {send_to_missing_name, fun() -> no_such_name_here ! hello end},
     {send_bad_dest, fun() -> 42 ! hello end},
     {pi_items, fun() -> P = spawn(fun() -> receive stop -> ok end end), timer:sleep(20), R = process_info(P, [status, message_queue_len, links, trap_exit, priority, registered_name]), P ! stop, R end},
     {pi_dead, fun() -> P = spawn(fun() -> ok end), timer:sleep(20), process_info(P, status) end},
     {pi_bad_item, fun() -> process_info(self(), no_such_item) end},
     {pi_messages, fun() -> self() ! a, self() ! {b}, R = process_info(self(), messages), receive a -> ok end, receive {b} -> ok end, R end},
     {pi_dict, fun() -> put(k, v), R = process_info(self(), dictionary), erase(k), lists:keyfind(k, 1, element(2, R)) end},
     {pi_current_function, fun() -> P = spawn(fun() -> receive stop -> ok end end), timer:sleep(20), R = process_info(P, current_function), P ! stop, R end},
     {flag_bad, fun() -> process_flag(no_such_flag, true) end},
     {flag_priority_bad, fun() -> process_flag(priority, ultra) end},
     {flag_priority, fun() -> Old = process_flag(priority, high), New = process_flag(priority, Old), {Old, New} end},
     {send_after, fun() -> erlang:send_after(10, self(), ding), receive ding -> ok after 1000 -> timeout end end},
     {cancel_timer, fun() -> R = erlang:send_after(1000, self(), x), V = erlang:cancel_timer(R), {is_integer(V), erlang:cancel_timer(R)} end},
     {cancel_timer_async, fun() -> R = erlang:start_timer(1000, self(), x), ok = erlang:cancel_timer(R, [{async, true}, {info, true}]), receive {cancel_timer, R, V} -> is_integer(V) after 1000 -> timeout end end},
     {read_timer_bad, fun() -> erlang:read_timer(not_a_ref) end},
     {start_timer_bad, fun() -> erlang:start_timer(-1, self(), x) end},
     {timeout_msg, fun() -> R = erlang:start_timer(5, self(), hi), receive {timeout, R, M} -> M after 1000 -> timeout end end},
     {spawn_opt_bad, fun() -> spawn_opt(fun() -> ok end, [no_such_option]) end},
     {spawn_opt_monitor, fun() -> {P, Ref} = spawn_opt(fun() -> exit(bye) end, [monitor]), receive {'DOWN', Ref, process, P, R} -> R after 1000 -> timeout end end},
     {spawn_bad_fun, fun() -> spawn(not_a_fun) end},
     {spawn_undef, fun() -> process_flag(trap_exit, true), P = spawn_link(no_such_module_xyz, f, []), receive {'EXIT', P, {R, _}} -> R after 1000 -> timeout end end},
     {apply_undef, fun() -> apply(lists, no_such_function, [1]) end},
     {fun_arity, fun() -> (fun(X) -> X end)(1, 2) end},
     {badfun, fun() -> (id(not_a_fun))(1) end},
     {function_clause, fun() -> lists:map(not_fun, [1]) end},
     {case_clause, fun() -> case self() of x -> ok end end},
     {if_clause, fun() -> X = self(), if X =:= 1 -> ok end end},
     {try_clause, fun() -> try self() of x -> ok catch _ -> err end end},
     {badmatch, fun() -> {a} = id({b}) end},
     {throw_uncaught_in_catch, fun() -> catch throw(ball) end},
     {exit_in_catch, fun() -> catch exit(boom) end},
     {error_in_catch, fun() -> case catch error(oops) of {'EXIT', {oops, _}} -> ok end end},
     {raise_bad, fun() -> erlang:raise(wrong_class, r, []) end},
     {raise_ok, fun() -> try erlang:raise(throw, r, []) catch throw:R -> R end end},
     {error_with_args, fun() -> try error(x, [1, 2]) catch error:x:St -> element(3, hd(St)) end end},
     {group_leader, fun() -> GL = group_leader(), P = spawn(fun() -> receive {gl, From} -> From ! {my_gl, group_leader()} end end), P ! {gl, self()}, receive {my_gl, G} -> G =:= GL after 1000 -> timeout end end},
     {group_leader_bad, fun() -> group_leader(not_a_pid, self()) end},
     {is_process_alive_bad, fun() -> is_process_alive(not_a_pid) end},
     {self_exit_message_order, fun() -> Me = self(), P = spawn(fun() -> [Me ! N || N <- lists:seq(1, 5)] end), timer:sleep(50), P =/= x, [receive N -> N end || _ <- lists:seq(1, 5)] end},
     {selective_receive, fun() -> self() ! a, self() ! b, self() ! c, R1 = receive b -> b end, R2 = receive X -> X end, R3 = receive Y -> Y end, [R1, R2, R3] end},
     {receive_after_zero, fun() -> receive nothing -> got after 0 -> timeout end end},
     {receive_after_bad, fun() -> T = id(-1), receive nothing -> got after T -> timeout end end},
     {processes_count, fun() -> is_integer(length(processes())) end},
     {list_to_pid_bad, fun() -> list_to_pid("<0.x.0>") end},
     {pid_roundtrip, fun() -> P = self(), list_to_pid(pid_to_list(P)) =:= P end},
     {alias, fun() -> A = alias(), Ref = spawn(fun() -> ok end), A ! {via_alias, Ref}, R = receive {via_alias, Ref} -> got after 500 -> timeout end, unalias(A), A ! late, {R, receive late -> got_late after 100 -> dropped end} end},
     {hibernate, fun() -> Me = self(), P = spawn(fun() -> Me ! up, erlang:hibernate(erlang, send, [Me, woke]) end), receive up -> ok end, timer:sleep(20), S = process_info(P, status), P ! poke, {S, receive woke -> woke after 1000 -> timeout end} end},
     {yield, fun() -> erlang:yield() end},
     {self_reductions, fun() -> {reductions, A} = process_info(self(), reductions), _ = lists:seq(1, id(1000)), {reductions, B} = process_info(self(), reductions), {A > 0, B > A} end},
     {bump, fun() -> erlang:bump_reductions(100) end},
     {system_flag_bad, fun() -> erlang:system_flag(no_such_flag, 1) end}
    ],
    [io:format("~p: ~p~n", [Tag, run(F)]) || {Tag, F} <- T],
    ok.
id(X) -> X.
%% Each case in a fresh process, so trap_exit, links and mailboxes do not leak between cases.
run(F) ->
    Me = self(),
    {P, Ref} = spawn_monitor(fun() -> Me ! {self(), try {ok, F()} catch C:R -> {C, strip(R)} end} end),
    receive
        {P, Res} -> erlang:demonitor(Ref, [flush]), Res;
        {'DOWN', Ref, process, P, R} -> {died, strip(R)}
    after 5000 -> timeout
    end.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.
