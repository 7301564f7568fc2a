-module(proc_info_items).
%% process_info/2 items beyond the common ones (GC settings, parent, catchlevel, current_location,
%% backtrace, and the tracing/binary items), spawn_opt's GC options and process_flag's GC flags,
%% compared with erl. Values that depend on a VM's memory layout are printed as their shape.
-export([main/0, waiter/0]).

main() ->
    Items = [backtrace, binary, catchlevel, current_location, garbage_collection, garbage_collection_info,
             last_calls, min_heap_size, min_bin_vheap_size, fullsweep_after, max_heap_size, parent,
             sequential_trace_token, trace, magic_ref],
    P = spawn(?MODULE, waiter, []),
    wait_until_waiting(P),
    [io:format("~p: ~p~n", [I, shape(I, erlang:process_info(P, I))]) || I <- Items],
    io:format("parent is self: ~p~n", [process_info(P, parent) =:= {parent, self()}]),
    io:format("location: ~p~n", [process_info(P, current_location)]),
    {backtrace, B} = process_info(P, backtrace),
    io:format("backtrace names the function: ~p~n", [binary:match(B, <<"proc_info_items:waiter/0">>) =/= nomatch]),
    P ! stop,
    %% suspending: counts per suspendee; a suspender's exit resumes what it suspended (which then
    %% waits in its receive again: wait_status/2 gives it time to get there on either VM)
    S = spawn(fun() -> receive _ -> ok end end),
    true = erlang:suspend_process(S), true = erlang:suspend_process(S),
    io:format("suspending: ~p~n", [[{Pid =:= S, A, O} || {Pid, A, O} <- element(2, process_info(self(), suspending))]]),
    true = erlang:resume_process(S),
    io:format("suspending after resume: ~p ~p~n", [[{Pid =:= S, A} || {Pid, A, _} <- element(2, process_info(self(), suspending))],
                                                  process_info(S, status)]),
    true = erlang:resume_process(S),
    io:format("suspending after second resume: ~p ~p~n", [process_info(self(), suspending), wait_status(S, 100)]),
    Self = self(),
    Suspender = spawn(fun() -> true = erlang:suspend_process(S), Self ! suspended, receive die -> ok end end),
    receive suspended -> ok end,
    io:format("suspended by another: ~p~n", [process_info(S, status)]),
    MRef = monitor(process, Suspender),
    Suspender ! die,
    receive {'DOWN', MRef, _, _, _} -> ok end,
    io:format("after the suspender died: ~p~n", [wait_status(S, 100)]),
    exit(S, kill),
    %% catchlevel of the caller itself, nested
    io:format("catchlevel: ~p~n", [element(2, process_info(self(), catchlevel))]),
    catch io:format("catchlevel in catch: ~p~n", [element(2, process_info(self(), catchlevel))]),
    try catch io:format("catchlevel in try+catch: ~p~n", [element(2, process_info(self(), catchlevel))])
    after ok end,
    %% process_flag: each returns the previous value; sizes rounded up as erts does
    Flags = [{min_heap_size, 1000}, {min_heap_size, 50}, {min_heap_size, 5000}, {min_bin_vheap_size, 100000},
             {fullsweep_after, 5}, {fullsweep_after, 0}, {max_heap_size, 5000},
             {max_heap_size, #{size => 100000, kill => false}}, {max_heap_size, #{error_logger => false}},
             {max_heap_size, 10}, {max_heap_size, #{size => 1000, bogus => 1}}, {max_heap_size, -1},
             {min_heap_size, -1}, {min_heap_size, foo}, {fullsweep_after, 1.0}],
    [io:format("process_flag(~p, ~p) -> ~p~n", [F, V, result(catch process_flag(F, V))]) || {F, V} <- Flags],
    {garbage_collection, GC} = process_info(self(), garbage_collection),
    io:format("~p~n", [process_info(self(), [min_heap_size, min_bin_vheap_size, fullsweep_after, max_heap_size])]),
    io:format("~p~n", [lists:keydelete(minor_gcs, 1, GC)]), % erl's count depends on its heap
    %% spawn_opt GC options
    Opts = [[{min_heap_size, 1000}], [{min_bin_vheap_size, 100000}, {fullsweep_after, 10}],
            [{max_heap_size, 4000}], [{max_heap_size, #{size => 0, kill => false, error_logger => false}}],
            [{min_heap_size, 10000000}], [{max_heap_size, 100}], [{min_heap_size, -5}], [{fullsweep_after, x}]],
    [begin
         R = (catch spawn_opt(fun() -> receive _ -> ok end end, O)),
         case is_pid(R) of
             true ->
                 io:format("spawn_opt ~p: ~p~n", [O, process_info(R, [min_heap_size, min_bin_vheap_size, fullsweep_after, max_heap_size])]),
                 exit(R, kill);
             false -> io:format("spawn_opt ~p: ~p~n", [O, result(R)])
         end
     end || O <- Opts],
    ok.

waiter() ->
    receive stop -> ok end.

wait_until_waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(1), wait_until_waiting(P)
    end.

wait_status(P, 0) -> process_info(P, status);
wait_status(P, N) ->
    case process_info(P, status) of
        {status, waiting} = S -> S;
        _ -> timer:sleep(1), wait_status(P, N - 1)
    end.

result({'EXIT', {Reason, _}}) -> {error, Reason};
result(X) -> X.

shape(parent, {parent, P}) when is_pid(P) -> {parent, pid};
shape(backtrace, {backtrace, B}) when is_binary(B) -> {backtrace, binary};
shape(current_location, {current_location, {M, F, A, L}}) -> {current_location, {M, F, A, is_list(L)}};
shape(garbage_collection_info, {garbage_collection_info, L}) -> {garbage_collection_info, [K || {K, _} <- L]};
shape(_, X) -> X.
