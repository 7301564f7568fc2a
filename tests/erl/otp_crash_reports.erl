-module(otp_crash_reports).
%% The logger events OTP emits when a gen_server, a supervised child, a plain process, a gen_statem
%% or a gen_event handler crashes. A logger handler in this module forwards each event to the test
%% process, which prints its level, metadata that is not a pid/time, and the report with pids
%% replaced by the atom pid (heap/stack sizes and reductions are shown only as integers).
-behaviour(gen_server).
-export([main/0, log/2, init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2,
         child/0, callback_mode/0, handle_event/4, handle_event/2]).

show(X) -> io:format("~p~n", [X]).

main() ->
    %% Only our handler: the default one would print to stderr with pids and times anyway.
    ok = logger:remove_handler(default),
    ok = logger:set_primary_config(level, info),
    ok = logger:add_handler(crash_h, ?MODULE, #{config => #{to => self()}, level => all}),
    process_flag(trap_exit, true),
    scenario(gen_server_call, 2, fun gen_server_crash/0),
    scenario(gen_server_info, 2, fun gen_server_info_crash/0),
    scenario(gen_server_init, 1, fun gen_server_init_crash/0),
    scenario(supervisor_child, 4, fun supervisor_child/0),
    scenario(plain_spawn, 2, fun plain_spawn/0),
    scenario(proc_lib_spawn, 1, fun proc_lib_spawn/0),
    scenario(gen_statem, 2, fun statem_crash/0),
    scenario(gen_event_handler, 1, fun event_crash/0),
    scenario(logger_calls, 7, fun logger_calls/0),
    ok = logger:remove_handler(crash_h),
    ok.

%% Run F, wait for the N events OTP emits for it (erl's count; a missing one shows after 10 s),
%% then 300 ms more for any extra, and print them sorted (they may come from several processes
%% whose relative order is not fixed). Waiting only for a quiet gap let a late event under CI load
%% slip into the next scenario's list.
scenario(Name, N, F) ->
    show({scenario, Name}),
    F(),
    Evs = collect(N),
    [show(E) || E <- lists:sort(Evs)],
    ok.

collect(N) ->
    Timeout = if N > 0 -> 10000; true -> 300 end,
    receive {logged, E} -> [E | collect(N - 1)] after Timeout -> [] end.

%% ---- the logger handler ----
log(#{level := Level, msg := Msg, meta := Meta}, #{config := #{to := To}}) ->
    To ! {logged, {Level, meta(Meta), msg(Msg)}}.

meta(Meta) ->
    maps:to_list(maps:with([domain, error_logger, report_cb_is_fun, mfa], Meta#{report_cb_is_fun => is_function(maps:get(report_cb, Meta, undefined))})).

msg({report, R}) -> {report, anon(R)};
msg({string, S}) -> {string, S};
msg({Format, Args}) -> {format, Format, anon(Args)}.

anon(P) when is_pid(P) -> pid;
anon(R) when is_reference(R) -> ref;
anon({K, V}) when K =:= heap_size; K =:= stack_size; K =:= reductions; K =:= total_heap_size ->
    {K, is_integer(V)};
anon(M) when is_map(M) -> maps:from_list([{K, anon(V)} || {K, V} <- maps:to_list(M)]);
anon(L) when is_list(L) -> [anon(X) || X <- L];
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon(X) -> X.

%% ---- scenarios ----
gen_server_crash() ->
    {ok, S} = gen_server:start(?MODULE, plain, []),
    show(element(1, element(2, catch gen_server:call(S, {crash, badness})))).

gen_server_info_crash() ->
    {ok, S} = gen_server:start({local, crash_named}, ?MODULE, plain, []),
    Mon = monitor(process, S),
    S ! {crash_info, info_badness},
    receive {'DOWN', Mon, process, S, R} -> show({down, R}) end.

gen_server_init_crash() ->
    show(element(1, gen_server:start(?MODULE, crash_in_init, []))).

supervisor_child() ->
    {ok, Sup} = supervisor:start_link(?MODULE, sup),
    [{c, C, worker, _}] = supervisor:which_children(Sup),
    M = monitor(process, C),
    C ! crash,
    receive {'DOWN', M, process, C, _} -> ok end,
    _ = supervisor:which_children(Sup), % the supervisor has handled the 'EXIT' (and restarted c)
    unlink(Sup),
    Mon = monitor(process, Sup),
    exit(Sup, shutdown),
    receive {'DOWN', Mon, process, Sup, R} -> show({sup_down, R}) end.

plain_spawn() ->
    {P, Mon} = spawn_monitor(fun() -> error({plain, crash}) end),
    receive {'DOWN', Mon, process, P, R} -> show({down, element(1, R)}) end,
    {P2, Mon2} = spawn_monitor(fun() -> exit(just_exit) end),
    receive {'DOWN', Mon2, process, P2, R2} -> show({down, R2}) end,
    {P3, Mon3} = spawn_monitor(fun() -> throw(thrown) end),
    receive {'DOWN', Mon3, process, P3, R3} -> show({down, element(1, R3)}) end.

proc_lib_spawn() ->
    P = proc_lib:spawn(fun() -> put(k, v), exit({proc_lib, crash}) end),
    Mon = monitor(process, P),
    receive {'DOWN', Mon, process, P, R} -> show({down, R}) end,
    P2 = proc_lib:spawn(fun() -> exit(normal) end),
    Mon2 = monitor(process, P2),
    receive {'DOWN', Mon2, process, P2, R2} -> show({down, R2}) end,
    P3 = proc_lib:spawn(fun() -> exit({shutdown, quiet}) end),
    Mon3 = monitor(process, P3),
    receive {'DOWN', Mon3, process, P3, R3} -> show({down, R3}) end.

statem_crash() ->
    {ok, S} = gen_statem:start(?MODULE, statem, []),
    show(element(1, element(2, catch gen_statem:call(S, crash)))).

event_crash() ->
    {ok, E} = gen_event:start(),
    ok = gen_event:add_handler(E, ?MODULE, handler),
    ok = gen_event:sync_notify(E, crash),
    show(gen_event:which_handlers(E)),
    gen_event:stop(E).

logger_calls() ->
    logger:error("plain ~p", [format]),
    logger:warning(#{what => report_map}),
    logger:info([{what, report_list}]),
    logger:debug("below the primary level"),
    logger:notice("with meta", #{domain => [mine]}),
    error_logger:error_msg("legacy ~p~n", [error_msg]),
    error_logger:error_report([{legacy, report}]),
    error_logger:info_report(progress, [{x, 1}]),
    ok.

%% ---- callbacks ----
init(plain) -> {ok, plain};
init(crash_in_init) -> error(init_failed);
init(sup) -> {ok, {#{intensity => 1, period => 5},
                   [#{id => c, start => {proc_lib, start_link, [?MODULE, child, []]}}]}};
init(statem) -> {ok, idle, data};
init(handler) -> {ok, hstate}.

child() ->
    proc_lib:init_ack({ok, self()}),
    receive crash -> exit(child_crashed) end.

handle_call({crash, R}, _From, _S) -> error(R).
handle_cast(_, S) -> {noreply, S}.
handle_info({crash_info, R}, _S) -> exit(R).
terminate(_, _) -> ok.

callback_mode() -> handle_event_function.
handle_event({call, _From}, crash, _State, _Data) -> error(statem_crash).

handle_event(crash, _S) -> error(handler_crash).
