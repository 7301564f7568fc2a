-module(otp_gen_server2).
%% gen_server beyond call/cast: timeouts in return tuples, hibernate, {continue,_}, calls to dead or
%% unknown servers (the exit reasons a caller sees), multi_call/abcast on the local node,
%% proc_lib:start_link/init_ack, sys:get_state/replace_state/statistics, init/terminate returns.
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2, handle_continue/2, terminate/2,
         format_status/2, pl_init/2]).

show(X) -> io:format("~p~n", [X]).
%% Polls until the server's log holds N timeout entries. A system message restarts a gen_server
%% timeout, so the polls are further apart (50 ms) than the timeouts tested (10-30 ms).
until_timeouts(S, N) -> until_timeouts(S, N, 100).
until_timeouts(_, _, 0) -> timeout;
until_timeouts(S, N, K) ->
    case length([x || timeout <- sys:get_state(S)]) >= N of
        true -> ok;
        false -> timer:sleep(50), until_timeouts(S, N, K - 1)
    end.

%% Polls until P has hibernated (at most ~4 s): both VMs get there, each at its own pace.
until_hibernated(P) -> until_hibernated(P, 2000).
until_hibernated(_, 0) -> timeout;
until_hibernated(P, N) ->
    case process_info(P, current_function) of
        {current_function, {erlang, hibernate, 3}} -> ok;
        _ -> timer:sleep(2), until_hibernated(P, N - 1)
    end.

%% {'EXIT', {Reason, {gen_server, call, [Pid | Rest]}}} with the pid replaced.
strip_pid({'EXIT', {R, {M, F, [P | A]}}}) when is_pid(P) -> {'EXIT', {R, {M, F, [pid | A]}}};
strip_pid(X) -> X.
t(F) -> try F() of V -> V catch C:R -> {C, R} end.

main() ->
    logger:set_primary_config(level, none),
    process_flag(trap_exit, true),
    timeouts(),
    continue(),
    dead_calls(),
    multi(),
    start_returns(),
    proc_lib_start(),
    sys_items(),
    ok.

timeouts() ->
    {ok, S} = gen_server:start_link(?MODULE, [], []),
    %% {reply, R, S, 30}: no message within 30 ms gives handle_info(timeout).
    show(gen_server:call(S, {reply_timeout, 30})),
    until_timeouts(S, 1),
    show(gen_server:call(S, log)),
    %% A message before the timeout cancels it.
    show(gen_server:call(S, {reply_timeout, 200})),
    show(gen_server:call(S, log)),
    timer:sleep(300),
    show(gen_server:call(S, log)),
    %% hibernate: the process hibernates and still answers.
    show(gen_server:call(S, hibernate)),
    until_hibernated(S),
    show(process_info(S, current_function)),
    show(gen_server:call(S, log)),
    gen_server:cast(S, {noreply_timeout, 10}),
    until_timeouts(S, 2),
    show(gen_server:call(S, log)),
    %% {timeout, T, Msg} style: the returned timeout is the plain 'timeout' message.
    S ! {info_timeout, 10},
    until_timeouts(S, 3),
    show(gen_server:call(S, log)),
    %% call timeouts: the caller exits with {timeout, {gen_server, call, ...}}.
    show(strip_pid(catch gen_server:call(S, {sleep, 200}, 20))),
    timer:sleep(250),
    %% The late reply must not show up as a stray message (OTP 24+ uses aliases).
    show(receive Stray -> {stray, Stray} after 50 -> no_stray end),
    show(gen_server:call(S, {noreply_then_reply, 5})),
    show(catch gen_server:call(S, {stop_reply, normal})),
    receive {'EXIT', S, R} -> show({stopped, R}) end,
    ok.

continue() ->
    {ok, S} = gen_server:start_link(?MODULE, continue, []),
    show(gen_server:call(S, log)),
    show(gen_server:call(S, {continue_reply, c2})),
    show(gen_server:call(S, log)),
    gen_server:cast(S, {continue_cast, c3}),
    show(gen_server:call(S, log)),
    show(catch gen_server:call(S, bad_continue)),
    receive {'EXIT', S, R} -> show({bad_continue_exit, element(1, R)}) end,
    ok.

dead_calls() ->
    show(catch gen_server:call(no_such_server, x)),
    show(catch gen_server:call({no_such_server, node()}, x)),
    show(catch gen_server:call({global, no_such_global}, x)),
    show(catch gen_server:call({via, global, no_such_via}, x)),
    Dead = spawn(fun() -> ok end),
    Mon = monitor(process, Dead),
    receive {'DOWN', Mon, process, Dead, _} -> ok end,
    show(element(1, element(2, catch gen_server:call(Dead, x)))),
    show(catch element(1, element(2, element(2, catch gen_server:call(Dead, x))))),
    {ok, S} = gen_server:start(?MODULE, [], []),
    show(strip_pid(catch gen_server:call(S, {crash_in_call, oops}))),
    show(is_process_alive(S)),
    {ok, S2} = gen_server:start(?MODULE, [], []),
    %% The server stops while the caller waits: the caller exits with the stop reason.
    show(strip_pid(catch gen_server:call(S2, {stop_noreply, {shutdown, gone}}))),
    {ok, S3} = gen_server:start({local, gs2_named}, ?MODULE, [], []),
    show(gen_server:start({local, gs2_named}, ?MODULE, [], []) =:= {error, {already_started, S3}}),
    show(gen_server:call(gs2_named, log)),
    show(gen_server:stop(gs2_named, {shutdown, x}, infinity)),
    show(catch gen_server:stop(gs2_named)),
    show(t(fun() -> gen_server:stop(Dead) end)),
    show(gen_server:cast(no_such_server, x)),
    show(gen_server:cast({no_such_server, node()}, x)),
    ok.

multi() ->
    {ok, _} = gen_server:start({local, gs2_multi}, ?MODULE, [], []),
    show(gen_server:multi_call(gs2_multi, log)),
    show(gen_server:multi_call([node()], gs2_multi, {reply_timeout, infinity})),
    show(gen_server:multi_call([node()], no_such_server, log)),
    show(gen_server:multi_call([node(), 'nonode@nowhere'], gs2_multi, log, 1000)),
    show(gen_server:abcast(gs2_multi, {noreply_timeout, infinity})),
    show(gen_server:abcast([node()], no_such_server, x)),
    show(gen_server:call(gs2_multi, log)),
    gen_server:stop(gs2_multi),
    ok.

start_returns() ->
    show(gen_server:start(?MODULE, {init, ignore}, [])),
    show(gen_server:start(?MODULE, {init, {stop, because}}, [])),
    show(gen_server:start(?MODULE, {init, {error, why}}, [])),
    show(gen_server:start(?MODULE, {init, weird}, [])),
    show(catch gen_server:start(?MODULE, {init, crash}, [])),
    show(gen_server:start(?MODULE, {init, sleep}, [{timeout, 50}])),
    show(gen_server:start_link(?MODULE, {init, {stop, linked}}, [])),
    show(receive {'EXIT', _, R} -> {linked_exit, R} after 500 -> no_exit end),
    show(gen_server:start_link(?MODULE, {init, ignore}, [])),
    show(receive {'EXIT', _, R2} -> {ignore_exit, R2} after 500 -> no_exit end),
    {ok, S} = gen_server:start(?MODULE, {init, {ok, st, 20}}, []),
    until_timeouts(S, 1),
    show(gen_server:call(S, log)),
    {ok, S2} = gen_server:start(?MODULE, {init, {ok, st, hibernate}}, []),
    until_hibernated(S2),
    show(process_info(S2, current_function)),
    show(gen_server:call(S2, log)),
    ok.

proc_lib_start() ->
    show(proc_lib:start_link(?MODULE, pl_init, [self(), ok])),
    show(proc_lib:start_link(?MODULE, pl_init, [self(), {error, failed}])),
    show(receive {'EXIT', _, R} -> {pl_exit, R} after 200 -> no_exit end),
    show(catch proc_lib:start_link(?MODULE, pl_init, [self(), crash])),
    show(receive {'EXIT', _, R2} -> {pl_exit, R2} after 200 -> no_exit end),
    show(catch proc_lib:start(?MODULE, pl_init, [self(), never], 50)),
    show(proc_lib:start(?MODULE, pl_init, [self(), ok])),
    %% proc_lib processes know their initial call and ancestors.
    Me = self(),
    P = proc_lib:spawn(fun() -> Me ! started, receive stop -> ok end end),
    receive started -> ok end,
    show(proc_lib:translate_initial_call(P)),
    show(element(1, proc_lib:initial_call(P))),
    show(lists:keymember(initial_call, 1, element(2, process_info(P, dictionary)))),
    P ! stop,
    H = proc_lib:spawn(fun() -> proc_lib:hibernate(erlang, apply, [fun() -> receive X -> exit({woke, X}) end end, []]) end),
    Mon = monitor(process, H),
    until_hibernated(H),
    show(process_info(H, current_function)),
    H ! hi,
    show(receive {'DOWN', Mon, process, H, Why} -> Why end),
    ok.

sys_items() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    show(sys:get_state(S)),
    show(sys:replace_state(S, fun(St) -> [replaced | St] end)),
    show(sys:get_state(S)),
    show(catch sys:replace_state(S, fun(_) -> error(bad) end)),
    show(sys:get_state(S)),
    show(sys:statistics(S, get)),
    ok = sys:statistics(S, true),
    gen_server:call(S, log),
    gen_server:cast(S, {noreply_timeout, infinity}),
    gen_server:call(S, log),
    {ok, Stats} = sys:statistics(S, get),
    show([{K, V} || {K, V} <- Stats, lists:member(K, [messages_in, messages_out])]),
    ok = sys:statistics(S, false),
    show(sys:statistics(S, get)),
    {status, _, {module, gen_server}, [_PDict, SysState, _Parent, _Dbg, Misc]} = sys:get_status(S),
    show(SysState),
    show(lists:last(Misc)),
    ok = sys:suspend(S),
    show(strip_pid(catch gen_server:call(S, log, 50))),
    ok = sys:resume(S),
    show(receive Late -> {late, Late} after 50 -> none end),
    show(gen_server:call(S, log)),
    show(catch sys:get_state(self_named_nobody)),
    show(sys:terminate(S, normal)),
    ok.

pl_init(Parent, ok) -> proc_lib:init_ack(Parent, {ok, self_ack}), receive after infinity -> ok end;
pl_init(Parent, {error, E}) -> proc_lib:init_ack(Parent, {error, E}), exit(E);
pl_init(_Parent, crash) -> error(crash_in_init);
pl_init(_Parent, never) -> receive after infinity -> ok end.

init([]) -> {ok, []};
init(continue) -> {ok, [init], {continue, first}};
init({init, {ok, St, T}}) -> {ok, [St], T};
init({init, crash}) -> error(init_crash);
init({init, sleep}) -> timer:sleep(500), {ok, []};
init({init, R}) -> R.

handle_call({reply_timeout, T}, _From, L) -> {reply, ok, [{reply_timeout, T} | L], T};
handle_call(log, _From, L) -> {reply, lists:reverse(L), L};
handle_call(hibernate, _From, L) -> {reply, ok, [hibernate | L], hibernate};
handle_call({sleep, T}, _From, L) -> timer:sleep(T), {reply, slept, L};
handle_call({noreply_then_reply, T}, From, L) -> erlang:send_after(T, self(), {late_reply, From}), {noreply, L};
handle_call({stop_reply, R}, _From, L) -> {stop, R, stopping, L};
handle_call({stop_noreply, R}, _From, L) -> {stop, R, L};
handle_call({crash_in_call, R}, _From, _L) -> error(R);
handle_call({continue_reply, C}, _From, L) -> {reply, ok, L, {continue, C}};
handle_call(bad_continue, _From, L) -> {reply, ok, L, {continue, bad}}.

handle_cast({noreply_timeout, T}, L) -> {noreply, [{noreply_timeout, T} | L], T};
handle_cast({continue_cast, C}, L) -> {noreply, L, {continue, C}}.

handle_info({late_reply, From}, L) -> gen_server:reply(From, late), {noreply, L};
handle_info({info_timeout, T}, L) -> {noreply, [{info_timeout, T} | L], T};
handle_info(timeout, L) -> {noreply, [timeout | L]};
handle_info(M, L) -> {noreply, [{info, M} | L]}.

handle_continue(bad, _L) -> error(bad_continue);
handle_continue(C, L) -> {noreply, [{continued, C} | L]}.

terminate(_Reason, _L) -> ok.

format_status(_Opt, [_PDict, L]) -> [{data, [{"State", {formatted, length(L)}}]}].
