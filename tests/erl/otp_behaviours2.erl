-module(otp_behaviours2).
%% gen_statem, gen_event, supervisor restarts, sys suspend/resume — OTP's own modules unmodified.
-export([main/0, callback_mode/0, init/1, locked/3, open/3, handle_event/2, handle_call/2, start_worker/1, worker/1,
         system_continue/3, system_terminate/4, system_code_change/4]).
main() ->
    {ok, Door} = gen_statem:start(?MODULE, [1, 2], []),
    io:format("~p~n", [gen_statem:call(Door, {button, 1})]),
    io:format("~p~n", [gen_statem:call(Door, {button, 2})]),
    io:format("~p~n", [gen_statem:call(Door, state)]),
    gen_statem:stop(Door),
    {ok, Ev} = gen_event:start(),
    ok = gen_event:add_handler(Ev, ?MODULE, event_handler),
    gen_event:notify(Ev, hello),
    gen_event:notify(Ev, world),
    io:format("~p~n", [gen_event:call(Ev, ?MODULE, get)]),
    gen_event:stop(Ev),
    process_flag(trap_exit, true),
    %% The supervisor report for the killed child carries pids and a timestamp: keep it out of stdout.
    logger:set_primary_config(level, critical),
    {ok, Sup} = supervisor:start_link(?MODULE, sup),
    [{w, W1, worker, _}] = supervisor:which_children(Sup),
    exit(W1, kill),
    timer:sleep(50),
    [{w, W2, worker, _}] = supervisor:which_children(Sup),
    io:format("restarted: ~p~n", [W1 =/= W2 andalso is_pid(W2)]),
    io:format("~p~n", [supervisor:count_children(Sup)]),
    ok = sys:suspend(W2),
    io:format("~p~n", [element(1, sys:get_status(W2))]),
    ok = sys:resume(W2),
    exit(Sup, shutdown),
    receive {'EXIT', Sup, shutdown} -> io:format("supervisor down~n") end,
    ok.
callback_mode() -> state_functions.
init(sup) -> {ok, {#{strategy => one_for_one, intensity => 3, period => 5},
                   [#{id => w, start => {?MODULE, start_worker, [x]}}]}};
init(Code) when is_list(Code) -> {ok, locked, {Code, []}};
init(event_handler) -> {ok, []}.
locked({call, From}, {button, B}, {Code, Sofar}) ->
    case Sofar ++ [B] of
        Code -> {next_state, open, {Code, []}, [{reply, From, opened}]};
        Partial -> {keep_state, {Code, Partial}, [{reply, From, {locked, length(Partial)}}]}
    end;
locked({call, From}, state, Data) -> {keep_state, Data, [{reply, From, locked}]}.
open({call, From}, state, Data) -> {keep_state, Data, [{reply, From, open}]};
open({call, From}, _, Data) -> {keep_state, Data, [{reply, From, already_open}]}.
handle_event(E, S) -> {ok, [E | S]}.
handle_call(get, S) -> {ok, lists:reverse(S), S}.
start_worker(X) -> {ok, proc_lib:spawn_link(?MODULE, worker, [X])}.
%% A minimal special process: answers system messages (sys:suspend/get_status/resume) and keeps going.
worker(X) -> [Parent | _] = get('$ancestors'), worker_loop(Parent, X).
worker_loop(Parent, X) -> receive {system, From, Req} -> sys:handle_system_msg(Req, From, Parent, ?MODULE, [], X) end.
system_continue(Parent, _Debug, X) -> worker_loop(Parent, X).
system_terminate(Reason, _Parent, _Debug, _X) -> exit(Reason).
system_code_change(X, _Module, _OldVsn, _Extra) -> {ok, X}.
