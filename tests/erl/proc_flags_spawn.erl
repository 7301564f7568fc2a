-module(proc_flags_spawn).
%% process_flag/2,3 return values and badargs, suspend/resume_process, register corner cases,
%% spawn_opt options (including monitor options), spawn_request and its replies.
-export([main/0, loop/0]).

show(X) -> io:format("~p~n", [X]).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.

main() ->
    logger:set_primary_config(level, none), % the badarity error report carries a pid and a time
    flags(),
    suspend(),
    registry(),
    spawn_opts(),
    requests(),
    ok.

loop() -> receive stop -> ok; {ping, From} -> From ! pong, loop() end.

flags() ->
    show(process_flag(trap_exit, true)),
    show(process_flag(trap_exit, false)),
    show(t(fun() -> process_flag(trap_exit, maybe) end)),
    show(process_flag(priority, high)),
    show(process_info(self(), priority)),
    show(process_flag(priority, normal)),
    show(t(fun() -> process_flag(priority, urgent) end)),
    show(process_flag(message_queue_data, off_heap)),
    show(process_flag(message_queue_data, on_heap)),
    show(t(fun() -> process_flag(message_queue_data, nowhere) end)),
    show(process_flag(sensitive, true)),
    show(process_flag(sensitive, false)),
    show(is_integer(process_flag(min_heap_size, 1000))),
    show(t(fun() -> process_flag(no_such_flag, 1) end)),
    show(t(fun() -> process_flag(trap_exit, true, x) end)),
    P = spawn(fun loop/0),
    show(process_flag(P, save_calls, 0)),
    show(t(fun() -> process_flag(P, trap_exit, true) end)),
    P ! stop,
    ok.

suspend() ->
    P = spawn(fun loop/0),
    show(erlang:suspend_process(P)),
    show(process_info(P, status)),
    P ! {ping, self()},
    show(receive pong -> pong_while_suspended after 100 -> no_pong end),
    show(erlang:resume_process(P)),
    show(receive pong -> pong_after_resume after 1000 -> no_pong end),
    show(t(fun() -> erlang:resume_process(P) end)),
    show(t(fun() -> erlang:suspend_process(self()) end)),
    show(t(fun() -> erlang:suspend_process(foo) end)),
    %% Suspended twice needs two resumes.
    true = erlang:suspend_process(P),
    true = erlang:suspend_process(P),
    true = erlang:resume_process(P),
    P ! {ping, self()},
    show(receive pong -> pong_after_one_resume after 100 -> still_suspended end),
    true = erlang:resume_process(P),
    show(receive pong -> pong_after_second_resume after 1000 -> no_pong end),
    show(erlang:suspend_process(P, [asynchronous])),
    show(receive {suspend_process, _, _} = M -> element(1, M) after 0 -> no_async_message end),
    show(erlang:suspend_process(P, [unless_suspending])),
    show(t(fun() -> erlang:suspend_process(P, [bad]) end)),
    %% unless_suspending did not count: one resume is enough, a second is badarg.
    show(erlang:resume_process(P)),
    show(t(fun() -> erlang:resume_process(P) end)),
    P ! stop,
    ok.

registry() ->
    P = spawn(fun loop/0),
    show(register(pfs_a, P)),
    show(t(fun() -> register(pfs_b, P) end)),
    show(t(fun() -> register(pfs_a, self()) end)),
    show(t(fun() -> register(undefined, self()) end)),
    show(t(fun() -> register("str", self()) end)),
    show(t(fun() -> register(pfs_c, foo) end)),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    show(t(fun() -> register(pfs_dead, Dead) end)),
    show(lists:member(pfs_a, registered())),
    show(whereis(pfs_a) =:= P),
    Mon = monitor(process, P),
    P ! stop,
    receive {'DOWN', Mon, _, _, _} -> ok end,
    %% A dead process's name is free again.
    show(whereis(pfs_a)),
    show(register(pfs_a, self())),
    show(unregister(pfs_a)),
    show(t(fun() -> unregister(pfs_a) end)),
    show(t(fun() -> pfs_a ! x end)),
    show(t(fun() -> {pfs_a, node()} ! x end)),
    ok.

spawn_opts() ->
    {P, M} = spawn_opt(fun() -> exit(bye) end, [monitor]),
    show(receive {'DOWN', M, process, P, R} -> {monitor_opt, R} end),
    {P2, M2} = spawn_opt(fun() -> exit(tagged) end, [{monitor, [{tag, my_tag}]}]),
    show(receive {my_tag, M2, process, P2, R2} -> {tagged_monitor_opt, R2} after 1000 -> none end),
    process_flag(trap_exit, true),
    {P3, M3} = spawn_opt(fun() -> exit(both) end, [link, monitor]),
    show(lists:sort([receive {'EXIT', P3, R3} -> {exit, R3} end, receive {'DOWN', M3, _, _, R4} -> {down, R4} end])),
    process_flag(trap_exit, false),
    Me = self(),
    P4 = spawn_opt(fun() -> Me ! {prio, process_info(self(), priority)} end, [{priority, low}]),
    show(receive {prio, Pr} -> Pr end),
    _ = P4,
    P5 = spawn_opt(fun() -> Me ! {mqd, process_info(self(), message_queue_data)} end, [{message_queue_data, off_heap}]),
    show(receive {mqd, Q} -> Q end),
    _ = P5,
    show(t(fun() -> spawn_opt(fun() -> ok end, [bogus]) end)),
    show(t(fun() -> spawn_opt(fun() -> ok end, bogus) end)),
    show(t(fun() -> spawn_opt(fun() -> ok end, [{priority, urgent}]) end)),
    show(t(fun() -> spawn_opt(?MODULE, loop, [], [{min_heap_size, 100}, {fullsweep_after, 10}]) end) =/= error),
    show(is_pid(spawn_opt(fun(_) -> ok end, []))), % badarity inside the new process
    show(t(fun() -> spawn(foo) end)),
    show(t(fun() -> spawn(m, f, not_a_list) end)),
    ok.

requests() ->
    R = erlang:spawn_request(fun() -> exit(normal) end, []),
    show(receive {spawn_reply, R, ok, P} -> {spawn_reply, ok, is_pid(P)} after 1000 -> none end),
    R2 = erlang:spawn_request(fun() -> exit(done) end, [monitor]),
    show(receive {spawn_reply, R2, ok, P2} ->
                 receive {'DOWN', R2, process, P2, Why} -> {monitored, Why} after 1000 -> no_down end
         after 1000 -> none end),
    R3 = erlang:spawn_request(?MODULE, loop, [], [{reply_tag, my_reply}, {reply, yes}]),
    show(receive {my_reply, R3, ok, P3} -> P3 ! stop, tagged_reply after 1000 -> none end),
    R4 = erlang:spawn_request(?MODULE, loop, [], [{reply, no}]),
    show(receive {spawn_reply, R4, _, _} -> unexpected after 100 -> no_reply end),
    R5 = erlang:spawn_request(fun() -> ok end, [{reply, error_only}]),
    show(receive {spawn_reply, R5, _, _} -> unexpected after 100 -> no_reply_on_success end),
    R8 = erlang:spawn_request(fun() -> ok end, [bad_opt]),
    show(receive {spawn_reply, R8, error, E8} -> {spawn_error, E8} after 1000 -> none end),
    R6 = erlang:spawn_request(?MODULE, loop, []),
    show(receive {spawn_reply, R6, ok, P6} -> P6 ! stop, mfa_request after 1000 -> none end),
    R7 = erlang:spawn_request(fun() -> receive after infinity -> ok end end),
    show(erlang:spawn_request_abandon(R7)),
    show(erlang:spawn_request_abandon(make_ref())),
    show(t(fun() -> erlang:spawn_request_abandon(foo) end)),
    ok.
