-module(otp_errors_sweep).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).
-export([callback_mode/0, idle/3, start_worker/1]).
%% OTP behaviours' error paths against erl: call timeouts and noproc exits, a server crashing in
%% a call, bad callback returns, supervisor child start failures, sys and proc_lib queries. The
%% logger prints without timestamps so reports compare exactly.
main() ->
    ok = logger:update_formatter_config(default, #{legacy_header => false, single_line => true,
                                                   template => [level, ": ", msg, "\n"]}),
    %% proc_lib's crash reports carry heap and stack sizes and reduction counts, which are the
    %% VM's own; the behaviours' reports and the callers' exits are compared.
    ok = logger:add_primary_filter(no_crash_reports, {fun logger_filters:domain/2, {stop, sub, [otp, sasl]}}),
    T = [
     {call_noproc, fun() -> gen_server:call(no_such_server_q, x) end},
     {call_timeout, fun() -> {ok, P} = gen_server:start(?MODULE, [], []), R = catch gen_server:call(P, {sleep, 200}, 50), gen_server:stop(P), element(1, element(2, R)) end},
     {call_crash, fun() -> {ok, P} = gen_server:start(?MODULE, [], []), R = catch gen_server:call(P, crash), timer:sleep(50), {element(1, element(2, R)), is_process_alive(P)} end},
     {bad_return, fun() -> {ok, P} = gen_server:start(?MODULE, [], []), R = catch gen_server:call(P, bad_return), timer:sleep(50), element(1, element(2, R)) end},
     {stop_reason, fun() -> {ok, P} = gen_server:start(?MODULE, [], []), gen_server:stop(P, shutdown, 1000) end},
     {start_init_fail, fun() -> gen_server:start(?MODULE, fail, []) end},
     {start_init_ignore, fun() -> gen_server:start(?MODULE, ignore, []) end},
     {start_name_taken, fun() -> {ok, P} = gen_server:start({local, sweep_gs}, ?MODULE, [], []), R = gen_server:start({local, sweep_gs}, ?MODULE, [], []), gen_server:stop(P), element(1, element(2, R)) end},
     {sys_state, fun() -> {ok, P} = gen_server:start(?MODULE, [], []), S = sys:get_state(P), sys:suspend(P), St = sys:get_status(P), sys:resume(P), gen_server:stop(P), {S, element(1, St)} end},
     {proc_lib_initial_call, fun() -> {ok, P} = gen_server:start(?MODULE, [], []), R = proc_lib:initial_call(P), gen_server:stop(P), R end},
     {sup_child_fail, fun() -> {ok, S} = supervisor:start_link(?MODULE, sup), R = supervisor:start_child(S, #{id => w, start => {?MODULE, start_worker, [fail]}}), unlink(S), exit(S, kill), R end},
     {sup_child_bad_spec, fun() -> {ok, S} = supervisor:start_link(?MODULE, sup), R = supervisor:start_child(S, #{id => w, start => not_mfa}), unlink(S), exit(S, kill), R end},
     {sup_which, fun() -> {ok, S} = supervisor:start_link(?MODULE, sup), {ok, _} = supervisor:start_child(S, #{id => w, start => {?MODULE, start_worker, [ok]}}), R = [{Id, Type} || {Id, _, Type, _} <- supervisor:which_children(S)], C = supervisor:count_children(S), unlink(S), exit(S, kill), {R, C} end}
    ],
    [begin io:format("~p: ~p~n", [Tag, sweep_lib:outcome(F)]), timer:sleep(400) end || {Tag, F} <- T],
    timer:sleep(300),
    ok.

init(fail) -> {stop, init_failed};
init(ignore) -> ignore;
init(sup) -> {ok, {#{strategy => one_for_one, intensity => 0}, []}};
init(statem) -> {ok, idle, state0};
init([]) -> {ok, state0}.
handle_call({sleep, T}, _From, S) -> timer:sleep(T), {reply, ok, S};
handle_call(crash, _From, _S) -> erlang:error(crashed_in_call);
handle_call(bad_return, _From, _S) -> what_is_this.
handle_cast(_, S) -> {noreply, S}.
handle_info(_, S) -> {noreply, S}.
terminate(_, _) -> ok.
callback_mode() -> state_functions.
idle({call, _From}, bad, _D) -> not_a_valid_return.
start_worker(fail) -> {error, no_go};
start_worker(ok) -> gen_server:start_link(?MODULE, [], []).
