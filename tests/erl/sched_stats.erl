-module(sched_stats).
-export([main/0]).

%% statistics/1 scheduler items and their system_flag/2 switches: shapes and the on/off
%% protocol (values are times and queue lengths, so only their kinds and relations are printed).

main() ->
    N = erlang:system_info(schedulers),
    show("swt off", erlang:statistics(scheduler_wall_time)),
    show("flag on", erlang:system_flag(scheduler_wall_time, true)),
    busy(200000),
    W = erlang:statistics(scheduler_wall_time),
    DC = erlang:system_info(dirty_cpu_schedulers),
    show("swt ids", lists:sort([I || {I, _, _} <- W]) =:= lists:seq(1, N + DC)),
    show("swt sane", lists:all(fun({_, A, T}) -> is_integer(A) andalso is_integer(T) andalso A >= 0 andalso A =< T end, W)),
    show("swt busy", lists:sum([A || {_, A, _} <- W]) > 0),
    WA = erlang:statistics(scheduler_wall_time_all),
    show("swt all ids", lists:sort([I || {I, _, _} <- WA]) =:= lists:seq(1, N + DC + erlang:system_info(dirty_io_schedulers))),
    show("flag again", erlang:system_flag(scheduler_wall_time, true)),
    show("flag off", erlang:system_flag(scheduler_wall_time, false)),
    show("flag off2", erlang:system_flag(scheduler_wall_time, false)),
    show("swt after off", erlang:statistics(scheduler_wall_time)),
    show("bad flag", catch erlang:system_flag(scheduler_wall_time, maybe)),
    %% run queues
    RQ = erlang:statistics(run_queue_lengths),
    show("rq len", length(RQ) =:= N + 1),
    show("rq all len", length(erlang:statistics(run_queue_lengths_all)) =:= N + 2),
    show("at len", length(erlang:statistics(active_tasks)) =:= N + 1),
    show("at all len", length(erlang:statistics(active_tasks_all)) =:= N + 2),
    show("totals", [is_integer(erlang:statistics(I)) || I <- [total_run_queue_lengths, total_run_queue_lengths_all, total_active_tasks, total_active_tasks_all]]),
    show("self active", erlang:statistics(total_active_tasks) >= 1),
    %% microstate accounting
    M0 = erlang:statistics(microstate_accounting),
    show("msacc shape", shape(M0)),
    show("msacc zero", lists:all(fun(#{counters := C}) -> lists:sum(maps:values(C)) =:= 0 end, M0)),
    show("msacc on", erlang:system_flag(microstate_accounting, true)),
    busy(200000),
    M1 = erlang:statistics(microstate_accounting),
    show("msacc emulator", lists:sum([E || #{type := scheduler, counters := #{emulator := E}} <- M1]) > 0),
    show("msacc reset", erlang:system_flag(microstate_accounting, reset)),
    show("msacc off", erlang:system_flag(microstate_accounting, false)),
    show("msacc off2", erlang:system_flag(microstate_accounting, false)),
    show("msacc bad", catch erlang:system_flag(microstate_accounting, maybe)),
    ok.

shape(L) ->
    lists:usort([{T, lists:sort(maps:keys(C))} || #{type := T, counters := C} <- L]).

busy(0) -> ok;
busy(N) -> _ = erlang:phash2(N), busy(N - 1).

show(What, X) -> io:format("~s: ~p~n", [What, X]).
