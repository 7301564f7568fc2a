-module(otp_statem_event).
%% gen_statem in handle_event_function mode: state_timeout, event timeouts, generic timeouts,
%% postpone, next_event, state enter calls; gen_event swap_handler/delete_handler/add_sup_handler
%% and gen_event_EXIT. Both OTP modules unmodified.
-export([main/0, callback_mode/0, init/1, handle_event/4, terminate/3,
         handle_event/2, handle_call/2, handle_info/2]).
-export([init_h/1, terminate/2]).

show(X) -> io:format("~p~n", [X]).

main() ->
    logger:set_primary_config(level, none),
    process_flag(trap_exit, true),
    statem(),
    statem_errors(),
    events(),
    ok.

statem() ->
    {ok, S} = gen_statem:start_link(?MODULE, [], []),
    %% state_timeout (200 ms) fires in 'waiting': it logs the event and stays.
    show(gen_statem:call(S, {goto, waiting})),
    wait_log(S),
    show(gen_statem:call(S, state)),
    %% Leaving the state cancels its state_timeout.
    show(gen_statem:call(S, {goto, waiting})),
    show(gen_statem:call(S, {goto, idle})),
    timer:sleep(300),
    show(gen_statem:call(S, state)),
    %% An event timeout is cancelled by any event; a generic timeout is not.
    show(gen_statem:call(S, {arm, event_timeout, 300})),
    show(gen_statem:call(S, ping)),
    timer:sleep(400),
    show(gen_statem:call(S, log)),
    show(gen_statem:call(S, {arm, generic, 40})),
    show(gen_statem:call(S, ping)),
    wait_log(S),
    show(gen_statem:call(S, log)),
    %% Postpone: 'later' events in idle are postponed until the state changes.
    gen_statem:cast(S, {later, 1}),
    gen_statem:cast(S, {later, 2}),
    show(gen_statem:call(S, log)),
    show(gen_statem:call(S, {goto, busy})),
    show(gen_statem:call(S, log)),
    show(gen_statem:call(S, {goto, idle})),
    %% next_event inserts events ahead of the queue, in order.
    show(gen_statem:call(S, inject)),
    show(gen_statem:call(S, log)),
    %% Replies from an action list and via gen_statem:reply; call with a timeout.
    show(gen_statem:call(S, two_replies)),
    show(strip(catch gen_statem:call(S, no_reply, 30))),
    show(gen_statem:call(S, {cancel_generic})),
    %% state enter calls ran for every state change.
    show(gen_statem:call(S, enters)),
    show(sys:get_state(S)),
    show(catch gen_statem:call(S, {stop, {shutdown, done}})),
    show(receive {'EXIT', S, R} -> {exit, R} after 1000 -> no_exit end),
    ok.

statem_errors() ->
    show(gen_statem:start(?MODULE, {init, ignore}, [])),
    show(gen_statem:start(?MODULE, {init, {stop, no}}, [])),
    show(gen_statem:start(?MODULE, {init, bad}, [])),
    {ok, S} = gen_statem:start(?MODULE, [], []),
    show(strip(catch gen_statem:call(S, bad_return))),
    show(is_process_alive(S)),
    show(catch gen_statem:call(no_such_statem, x)),
    ok.

%% Polls (without taking it) until the machine has logged an event.
wait_log(S) -> wait_log(S, 2000).
wait_log(_, 0) -> timeout;
wait_log(S, N) ->
    case sys:get_state(S) of
        {_, #{log := [_ | _]}} -> ok;
        _ -> timer:sleep(2), wait_log(S, N - 1)
    end.

strip({'EXIT', {R, {M, F, [P | A]}}}) when is_pid(P) -> {'EXIT', {R, {M, F, [pid | A]}}};
strip(X) -> X.

events() ->
    {ok, E} = gen_event:start_link(),
    ok = gen_event:add_handler(E, {?MODULE, a}, [a]),
    ok = gen_event:add_handler(E, {?MODULE, b}, [b]),
    show(lists:sort(gen_event:which_handlers(E))),
    show(gen_event:add_handler(E, {?MODULE, a}, [a])),
    ok = gen_event:sync_notify(E, ev1),
    show(gen_event:call(E, {?MODULE, a}, get)),
    %% swap_handler: the old handler's terminate result becomes the new handler's init argument.
    show(gen_event:swap_handler(E, {{?MODULE, a}, swap_out}, {{?MODULE, c}, swap_in})),
    show(lists:sort(gen_event:which_handlers(E))),
    show(gen_event:call(E, {?MODULE, c}, get)),
    show(gen_event:swap_handler(E, {{?MODULE, nope}, x}, {{?MODULE, d}, swap_in})),
    show(lists:sort(gen_event:which_handlers(E))),
    show(gen_event:delete_handler(E, {?MODULE, b}, bye)),
    show(gen_event:delete_handler(E, {?MODULE, b}, bye)),
    show(gen_event:call(E, {?MODULE, b}, get)),
    show(gen_event:call(E, {?MODULE, c}, nosuchcall)),
    show(lists:sort(gen_event:which_handlers(E))),
    %% A handler that crashes is removed; a supervised one tells its owner with gen_event_EXIT.
    ok = gen_event:add_sup_handler(E, {?MODULE, s}, [s]),
    ok = gen_event:sync_notify(E, crash),
    show(receive {gen_event_EXIT, {?MODULE, s}, R} -> {gen_event_EXIT, element(1, R)} after 1000 -> none end),
    show(lists:sort(gen_event:which_handlers(E))),
    ok = gen_event:add_sup_handler(E, {?MODULE, s2}, [s2]),
    show(gen_event:delete_handler(E, {?MODULE, s2}, go)),
    show(receive {gen_event_EXIT, {?MODULE, s2}, R2} -> {gen_event_EXIT, R2} after 100 -> none end),
    ok = gen_event:add_sup_handler(E, {?MODULE, s3}, [s3]),
    ok = gen_event:sync_notify(E, remove_me),
    show(receive {gen_event_EXIT, {?MODULE, s3}, R3} -> {gen_event_EXIT, R3} after 1000 -> none end),
    ok = gen_event:add_sup_handler(E, {?MODULE, s4}, [s4]),
    ok = gen_event:add_handler(E, {?MODULE, i}, [i]),
    E ! info_msg,
    show(gen_event:call(E, {?MODULE, i}, get)),
    show(gen_event:add_handler(E, {?MODULE, bad}, bad_init)),
    show(gen_event:add_handler(E, {?MODULE, bad2}, crash_init)),
    show(lists:sort(gen_event:which_handlers(E))),
    show(gen_event:stop(E)),
    show(receive {gen_event_EXIT, {?MODULE, s4}, R4} -> {gen_event_EXIT, R4} after 1000 -> none end),
    show(receive {'EXIT', E, R5} -> {exit, R5} after 1000 -> no_exit end),
    show(catch gen_event:notify(no_such_event_mgr, x)),
    show(catch gen_event:call(no_such_event_mgr, h, x)),
    ok.

init_h(X) -> X.

callback_mode() -> [handle_event_function, state_enter].

init({init, R}) -> R;
init([]) -> {ok, idle, #{log => [], enters => []}};
init([Id]) when is_atom(Id) -> {ok, [Id]};
init({swap_in, Old}) -> {ok, [c, {from_swap, Old}]};
init(bad_init) -> {error, nope};
init(crash_init) -> error(init_crash).

handle_event(enter, Old, New, D = #{enters := En}) ->
    Actions = case New of waiting -> [{state_timeout, 200, expire}]; _ -> [] end,
    {keep_state, D#{enters := [{Old, New} | En]}, Actions};
handle_event({call, From}, {goto, St}, _S, D) -> {next_state, St, D, [{reply, From, {ok, St}}]};
handle_event({call, From}, state, S, _D) -> {keep_state_and_data, [{reply, From, S}]};
handle_event({call, From}, log, _S, D = #{log := L}) -> {keep_state, D#{log := []}, [{reply, From, lists:reverse(L)}]};
handle_event({call, From}, enters, _S, #{enters := En}) -> {keep_state_and_data, [{reply, From, lists:reverse(En)}]};
handle_event({call, From}, {arm, event_timeout, T}, _S, D) ->
    {keep_state, D, [{reply, From, armed}, {timeout, T, ev_to}]};
handle_event({call, From}, {arm, generic, T}, _S, D) ->
    {keep_state, D, [{reply, From, armed}, {{timeout, g}, T, gen_to}]};
handle_event({call, From}, {cancel_generic}, _S, D) ->
    {keep_state, D, [{reply, From, cancelled}, {{timeout, g}, cancel}]};
handle_event({call, From}, ping, _S, D) -> {keep_state, D, [{reply, From, pong}]};
handle_event({call, From}, inject, _S, D) ->
    {keep_state, D, [{next_event, internal, i1}, {next_event, cast, i2}, {reply, From, injected}]};
handle_event({call, From}, two_replies, _S, _D) ->
    gen_statem:reply(From, first),
    {keep_state_and_data, [{reply, From, second}]};
handle_event({call, _From}, no_reply, _S, _D) -> keep_state_and_data;
handle_event({call, From}, {stop, R}, _S, D) -> {stop_and_reply, R, [{reply, From, stopping}], D};
handle_event({call, _From}, bad_return, _S, _D) -> what;
handle_event(cast, {later, _}, idle, _D) -> {keep_state_and_data, [postpone]};
handle_event(Type, Content, S, D = #{log := L}) -> {keep_state, D#{log := [{S, Type, Content} | L]}}.

terminate(_R, _S, _D) -> ok.

%% gen_event handler callbacks (the init callback shares init/1 above through a tuple argument).
handle_event(crash, [s]) -> error(handler_crash);
handle_event(remove_me, [s3]) -> remove_handler;
handle_event(E, [Id | Evs]) -> {ok, [Id | [E | Evs]]}.
handle_call(get, S) -> {ok, S, S};
handle_call(nosuchcall, _S) -> {remove_handler, removed}.
terminate(Arg, [Id | _]) -> {terminated, Id, Arg}.
handle_info(M, [Id | Evs]) -> {ok, [Id | [{info, M} | Evs]]}.
