-module(sched_spawn_opt).
-export([main/0]).
%% spawn_opt options and priorities: which options are accepted, what process_info reports,
%% link/monitor set up atomically with the spawn, and process_flag(priority) return values.
t(F) -> try F() of V -> V catch C:R -> {C, R} end.
show(X) -> io:format("~p~n", [X]).
main() ->
    Self = self(),
    Opts = [[], [link], [monitor], [{priority, max}], [{priority, high}], [{priority, low}], [{priority, normal}],
            [{min_heap_size, 1000}], [{min_bin_vheap_size, 1000}], [{fullsweep_after, 10}],
            [{message_queue_data, off_heap}], [{message_queue_data, on_heap}], [{max_heap_size, 100000}],
            [{priority, urgent}], [{priority, 1}], [bogus], [{min_heap_size, -1}], [{message_queue_data, maybe}],
            [link | monitor], foo],
    show([{O, kind(t(fun() -> spawn_opt(fun() -> receive stop -> ok end end, O) end))} || O <- Opts]),
    %% Priority as reported by process_info, for each level.
    show([begin
              P = spawn_opt(fun() -> receive stop -> ok end end, [{priority, L}]),
              {priority, Got} = process_info(P, priority),
              P ! stop,
              Got
          end || L <- [max, high, normal, low]]),
    %% process_flag(priority) returns the old level; bad levels are badarg.
    show(process_flag(priority, high)),
    show(process_flag(priority, low)),
    show(process_flag(priority, normal)),
    show(t(fun() -> process_flag(priority, urgent) end)),
    show(process_info(self(), priority)),
    %% link: the child's crash reaches us as an exit signal.
    process_flag(trap_exit, true),
    L = spawn_opt(fun() -> exit(boom) end, [link]),
    show(receive {'EXIT', L, R} -> {linked_exit, R} after 2000 -> none end),
    %% monitor: {Pid, Ref} and a 'DOWN' with the reason.
    {M, Ref} = spawn_opt(fun() -> exit(bye) end, [monitor]),
    show(receive {'DOWN', Ref, process, M, R2} -> {down, R2} after 2000 -> none end),
    {M2, Ref2} = spawn_opt(fun() -> ok end, [link, monitor, {priority, high}]),
    show(receive {'DOWN', Ref2, process, M2, R3} -> {down, R3} after 2000 -> none end),
    show(receive {'EXIT', M2, R4} -> {linked_exit, R4} after 2000 -> none end),
    %% MFA form.
    P2 = spawn_opt(erlang, send, [Self, mfa_ran], [{priority, low}]),
    show(is_pid(P2)),
    show(receive mfa_ran -> mfa_ran after 2000 -> none end),
    %% A busy low-priority process does not starve normal ones; high ones still run.
    Busy = spawn_opt(fun spin/0, [{priority, low}]),
    Hi = spawn_opt(fun() -> Self ! high_ran end, [{priority, high}]),
    show(receive high_ran -> high_ran after 5000 -> starved end),
    Lo = spawn_opt(fun() -> Self ! low_ran end, [{priority, low}]),
    show(receive low_ran -> low_ran after 5000 -> starved end),
    exit(Busy, kill),
    _ = {Hi, Lo},
    ok.
spin() -> spin().
kind({error, R}) -> {error, R};
kind(P) when is_pid(P) -> P ! stop, pid;
kind({P, R}) when is_pid(P), is_reference(R) -> P ! stop, pid_ref;
kind(X) -> X.
