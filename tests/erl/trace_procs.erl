-module(trace_procs).
-export([main/0, child/1, echo/0]).

%% Tracing of process events (erlang:trace/3): send, 'receive', procs, set_on_spawn,
%% timestamps, trace_info, trace_delivered, errors. Pids are printed by role.

main() ->
    basic_send_receive(),
    procs_events(),
    set_on_spawn(),
    info_and_errors(),
    timestamps(),
    tracer_death(),
    all_and_new(),
    ok.

collector() -> spawn(fun() -> collect([]) end).
collect(Acc) ->
    receive
        {dump, From} -> From ! {msgs, lists:reverse(Acc)};
        M -> collect([M | Acc])
    end.
dump(T, Names) ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    T ! {dump, self()},
    receive {msgs, L} -> [io:format("  ~p~n", [name(M, Names)]) || M <- L] end,
    ok.
name(M, Names) when is_tuple(M) -> list_to_tuple([name(E, Names) || E <- tuple_to_list(M)]);
name(M, Names) when is_list(M) -> [name(E, Names) || E <- M];
name(F, _) when is_function(F) -> fun_;
name(P, Names) when is_pid(P); is_port(P); is_reference(P) ->
    case lists:keyfind(P, 1, Names) of {_, N} -> N; false -> other end;
name(M, _) -> M.

echo() -> receive {From, X} -> From ! {echoed, X}, echo(); stop -> ok end.

basic_send_receive() ->
    io:format("send/receive~n"),
    T = collector(),
    Self = self(),
    P = spawn(fun() ->
                      receive go -> ok end,
                      E = spawn(?MODULE, echo, []),
                      E ! {self(), hello},
                      receive {echoed, _} -> ok end,
                      register(trp_echo, E),
                      trp_echo ! {self(), named},
                      receive {echoed, _} -> ok end,
                      E ! stop,
                      receive after 20 -> ok end,
                      E ! after_death,
                      self() ! to_self,
                      receive to_self -> ok end,
                      Self ! done,
                      receive stop -> ok end
              end),
    1 = erlang:trace(P, true, [send, 'receive', {tracer, T}]),
    P ! go,
    receive done -> ok end,
    stop([P]),
    dump(T, [{P, p}, {Self, main}, {T, tracer}]).

procs_events() ->
    io:format("procs~n"),
    T = collector(),
    Self = self(),
    P = spawn(fun() ->
                      receive go -> ok end,
                      C = spawn(?MODULE, child, [self()]),
                      link(C),
                      unlink(C),
                      C2 = spawn_link(?MODULE, child, [self()]),
                      register(trp_name, self()),
                      unregister(trp_name),
                      C ! stop, C2 ! stop,
                      process_flag(trap_exit, true),
                      receive {'EXIT', C2, _} -> ok end,
                      Self ! {done, C, C2},
                      receive stop -> exit(bye) end
              end),
    1 = erlang:trace(P, true, [procs, {tracer, T}]),
    P ! go,
    receive {done, C, C2} -> ok end,
    %% another process links to P: P gets getting_linked
    L = spawn(fun() -> link(P), Self ! linked, receive stop -> unlink(P), Self ! unlinked, receive _ -> ok end end end),
    receive linked -> ok end,
    L ! stop,
    receive unlinked -> ok end,
    stop([P]),
    dump(T, [{P, p}, {C, c1}, {C2, c2}, {L, l}, {Self, main}]).

child(_Parent) -> receive stop -> ok end.

set_on_spawn() ->
    io:format("set_on_spawn~n"),
    T = collector(),
    Self = self(),
    P = spawn(fun() ->
                      receive go -> ok end,
                      C = spawn(fun() -> receive x -> Self ! {child_got, self()} end, receive stop -> ok end end),
                      C ! x,
                      Self ! {c, C},
                      receive stop -> ok end
              end),
    erlang:trace(P, true, ['receive', procs, set_on_spawn, {tracer, T}]),
    P ! go,
    C = receive {c, C0} -> C0 end,
    receive {child_got, C} -> ok end,
    io:format("  child flags ~p~n", [erlang:trace_info(C, flags)]),
    io:format("  child tracer ~p~n", [element(2, erlang:trace_info(C, tracer)) =:= T]),
    stop([C, P]),
    dump(T, [{P, p}, {C, c}, {Self, main}]).

info_and_errors() ->
    io:format("info/errors~n"),
    T = collector(),
    P = spawn(fun() -> receive stop -> ok end end),
    io:format("  untraced ~p ~p~n", [erlang:trace_info(P, flags), erlang:trace_info(P, tracer)]),
    1 = erlang:trace(P, true, [send, 'receive', procs, call, return_to, running, garbage_collection, set_on_link, {tracer, T}]),
    {flags, F} = erlang:trace_info(P, flags),
    io:format("  flags ~p~n", [lists:sort(F)]),
    io:format("  process_info trace ~p~n", [process_info(P, trace)]),
    {tracer, T} = erlang:trace_info(P, tracer),
    io:format("  all ~p~n", [catch_it(fun() -> erlang:trace_info(P, all) end)]),
    1 = erlang:trace(P, false, [send, running, garbage_collection, return_to]),
    {flags, F2} = erlang:trace_info(P, flags),
    io:format("  after off ~p~n", [lists:sort(F2)]),
    1 = erlang:trace(P, false, [all]),
    io:format("  all off ~p ~p~n", [erlang:trace_info(P, flags), erlang:trace_info(P, tracer)]),
    Bad = [{P, true, [bogus]}, {P, true, bogus}, {P, maybe, [send]}, {not_a_pid, true, [send]},
           {P, true, [{tracer, not_a_pid}]}, {P, true, [{tracer, 1, 2, 3}]}],
    [io:format("  ~p~n", [catch_it(fun() -> erlang:trace(A, B, C) end)]) || {A, B, C} <- Bad],
    {Dead, DRef} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', DRef, _, _, _} -> ok end,
    io:format("  dead tracee ~p~n", [catch_it(fun() -> erlang:trace(Dead, true, [send, {tracer, T}]) end)]),
    io:format("  dead tracer ~p~n", [catch_it(fun() -> erlang:trace(P, true, [send, {tracer, Dead}]) end)]),
    io:format("  info dead ~p~n", [erlang:trace_info(Dead, flags)]),
    io:format("  info bad ~p~n", [catch_it(fun() -> erlang:trace_info(P, bogus) end)]),
    %% a second tracer for an already traced process
    T2 = collector(),
    1 = erlang:trace(P, true, [send, {tracer, T}]),
    %% A different tracer for a traced process is a badarg, but erts also logs an error report
    %% then (with a timestamp, and not stopped by the logger's level), so it is not printed here.
    _ = T2,
    io:format("  same tracer ~p~n", [catch_it(fun() -> erlang:trace(P, true, ['receive', {tracer, T}]) end)]),
    P ! stop,
    ok.

%% Stops the processes and waits until they are gone (their exit events are then delivered).
stop(Ps) ->
    Refs = [monitor(process, P) || P <- Ps],
    [P ! stop || P <- Ps],
    [receive {'DOWN', R, _, _, _} -> ok end || R <- Refs],
    ok.

catch_it(F) -> try F() catch C:R -> {C, R} end.

timestamps() ->
    io:format("timestamps~n"),
    T = collector(),
    Self = self(),
    P = spawn(fun() -> receive go -> Self ! a end, receive go -> Self ! b end, receive go -> Self ! c end, receive stop -> ok end end),
    erlang:trace(P, true, [send, timestamp, {tracer, T}]),
    P ! go, receive a -> ok end,
    erlang:trace(P, false, [timestamp]),
    erlang:trace(P, true, [monotonic_timestamp, {tracer, T}]),
    P ! go, receive b -> ok end,
    erlang:trace(P, true, [strict_monotonic_timestamp, {tracer, T}]),
    P ! go, receive c -> ok end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    T ! {dump, self()},
    receive {msgs, L} -> [io:format("  ~p~n", [shape(M)]) || M <- L] end,
    P ! stop.

shape(M) when is_tuple(M) -> list_to_tuple([shape(E) || E <- tuple_to_list(M)]);
shape(P) when is_pid(P) -> pid;
shape(I) when is_integer(I) -> int;
shape(A) -> A.

tracer_death() ->
    io:format("tracer death~n"),
    T = collector(),
    P = spawn(fun() -> receive stop -> ok end end),
    erlang:trace(P, true, [send, {tracer, T}]),
    exit(T, kill),
    timer:sleep(20),
    P ! hello,
    timer:sleep(20),
    io:format("  ~p ~p~n", [erlang:trace_info(P, flags), erlang:trace_info(P, tracer)]),
    P ! stop.

all_and_new() ->
    io:format("all/new~n"),
    T = collector(),
    N = erlang:trace(new, true, [procs, {tracer, T}]),
    io:format("  new ~p~n", [N]),
    Self = self(),
    C = spawn(fun() -> Self ! {me, self()}, receive stop -> ok end end),
    receive {me, C} -> ok end,
    io:format("  new proc flags ~p~n", [erlang:trace_info(C, flags)]),
    erlang:trace(new, false, [procs]),
    C2 = spawn(fun() -> receive stop -> ok end end),
    io:format("  later proc flags ~p~n", [erlang:trace_info(C2, flags)]),
    io:format("  info new ~p~n", [erlang:trace_info(new, flags)]),
    stop([C, C2]),
    io:format("  dead pid off ~p~n", [catch_it(fun() -> erlang:trace(C, false, [all]) end)]),
    Cnt = erlang:trace(existing_processes, true, [send, {tracer, T}]),
    io:format("  existing count ~p~n", [Cnt > 5]),
    erlang:trace(all, false, [all]),
    io:format("  self after all off ~p~n", [erlang:trace_info(self(), flags)]),
    ok.
