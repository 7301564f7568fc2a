-module(otp_supervisors).
%% supervisor strategies (one_for_all, rest_for_one, simple_one_for_one), child management calls,
%% restart intensity exceeded, shutdown specs and auto_shutdown — OTP's supervisor.erl unmodified.
%% Which children were restarted is printed by comparing pids before/after, never the pids themselves.
-export([main/0, init/1, start_child/1, child/1, stubborn/1, start_bad/1]).

show(X) -> io:format("~p~n", [X]).

main() ->
    process_flag(trap_exit, true),
    %% Crash reports carry pids and timestamps; they go to stderr, keep them quiet.
    logger:set_primary_config(level, none),
    strategy(one_for_all),
    strategy(rest_for_one),
    strategy(one_for_one),
    simple(),
    management(),
    intensity(),
    shutdowns(),
    auto_shutdown(),
    bad_specs(),
    ok.

%% Three workers a, b, c; kill b and see which pids changed.
strategy(Strategy) ->
    {ok, Sup} = supervisor:start_link(?MODULE, {strategy, Strategy}),
    Before = kids(Sup),
    {b, B} = lists:keyfind(b, 1, Before),
    Mon = monitor(process, B),
    exit(B, kill),
    receive {'DOWN', Mon, process, B, killed} -> ok end,
    After = wait_restarted(Sup, Before),
    show({Strategy, [{Id, P1 =/= P2} || {{Id, P1}, {Id, P2}} <- lists:zip(Before, After)]}),
    show(supervisor:count_children(Sup)),
    stop_sup(Sup).

%% which_children lists children in reverse start order; normalise to start order a, b, c.
kids(Sup) ->
    lists:sort([{Id, P} || {Id, P, worker, [?MODULE]} <- supervisor:which_children(Sup)]).

wait_restarted(Sup, Before) -> wait_restarted(Sup, Before, 200).
wait_restarted(Sup, _Before, 0) -> kids(Sup);
wait_restarted(Sup, Before, N) ->
    Now = kids(Sup),
    case lists:all(fun({_, P}) -> is_pid(P) end, Now) andalso Now =/= Before of
        true -> Now;
        false -> timer:sleep(5), wait_restarted(Sup, Before, N - 1)
    end.

stop_sup(Sup) ->
    unlink(Sup),
    Mon = monitor(process, Sup),
    exit(Sup, shutdown),
    receive {'DOWN', Mon, process, Sup, R} -> show({sup_down, R}) end.

simple() ->
    {ok, Sup} = supervisor:start_link(?MODULE, simple),
    {ok, C1} = supervisor:start_child(Sup, [one]),
    {ok, C2} = supervisor:start_child(Sup, [two]),
    show({ask, gen_call(C1, name), gen_call(C2, name)}),
    show(supervisor:count_children(Sup)),
    show(length(supervisor:which_children(Sup))),
    show([{Id, T, M} || {Id, _, T, M} <- supervisor:which_children(Sup)]),
    show(supervisor:terminate_child(Sup, C1)),
    show(is_process_alive(C1)),
    show(supervisor:terminate_child(Sup, C1)),
    show(supervisor:terminate_child(Sup, some_id)),
    show(supervisor:delete_child(Sup, C2)),
    show(supervisor:restart_child(Sup, C2)),
    %% A crashing temporary... the spec is transient: a normal exit is not restarted, a crash is.
    exit_and_wait(C2, normal),
    show({after_normal, supervisor:count_children(Sup)}),
    {ok, C3} = supervisor:start_child(Sup, [three]),
    Mon = monitor(process, C3),
    C3 ! {exit, crash},
    receive {'DOWN', Mon, process, C3, crash} -> ok end,
    show({after_crash, supervisor:count_children(Sup)}),
    [{undefined, C4, worker, _}] = supervisor:which_children(Sup),
    show({restarted_args, gen_call(C4, name), C4 =/= C3}),
    show(supervisor:start_child(Sup, [ignore_me])),
    show(supervisor:start_child(Sup, [error_me])),
    show(catch supervisor:start_child(Sup, [crash_me])),
    show(supervisor:get_childspec(Sup, C4)),
    stop_sup(Sup).

management() ->
    {ok, Sup} = supervisor:start_link(?MODULE, empty),
    Spec = #{id => w1, start => {?MODULE, start_child, [w1]}, restart => permanent},
    {ok, W1} = supervisor:start_child(Sup, Spec),
    show(supervisor:start_child(Sup, Spec) =:= {error, {already_started, W1}}),
    show(supervisor:terminate_child(Sup, w1)),
    show(supervisor:start_child(Sup, Spec)),
    show(supervisor:which_children(Sup)),
    {ok, W1b} = supervisor:restart_child(Sup, w1),
    show({restarted, is_pid(W1b), W1b =/= W1}),
    show(supervisor:restart_child(Sup, w1)),
    show(supervisor:delete_child(Sup, w1)),
    show(supervisor:terminate_child(Sup, w1)),
    ok = supervisor:terminate_child(Sup, w1),
    show(supervisor:delete_child(Sup, w1)),
    show(supervisor:delete_child(Sup, w1)),
    show(supervisor:restart_child(Sup, w1)),
    show(supervisor:get_childspec(Sup, w1)),
    show(supervisor:start_child(Sup, #{id => ig, start => {?MODULE, start_child, [ignore_me]}})),
    show(supervisor:which_children(Sup)),
    show(supervisor:restart_child(Sup, ig)),
    show(supervisor:start_child(Sup, #{id => er, start => {?MODULE, start_child, [error_me]}})),
    show(supervisor:start_child(Sup, #{id => bad, start => {?MODULE, start_child, [bad_return]}})),
    {ok, T} = supervisor:start_child(Sup, #{id => t, start => {?MODULE, start_child, [t]}, restart => temporary}),
    show(is_pid(T)),
    show(supervisor:get_childspec(Sup, t)),
    ok = supervisor:terminate_child(Sup, t),
    show({temporary_gone, supervisor:which_children(Sup)}),
    show(supervisor:check_childspecs([#{id => x, start => {m, f, []}}])),
    show(supervisor:check_childspecs([#{id => x}])),
    show(supervisor:check_childspecs([#{id => x, start => {m, f, []}, restart => sometimes}])),
    show(supervisor:check_childspecs([{x, {m, f, []}, permanent, 5000, worker, [m]}])),
    show(supervisor:check_childspecs([#{id => x, start => {m, f, []}}, #{id => x, start => {m, f, []}}])),
    stop_sup(Sup).

%% Intensity 2 in 10 s: the third crash makes the supervisor give up with reason shutdown.
intensity() ->
    {ok, Sup} = supervisor:start_link(?MODULE, intensity),
    Crash = fun() ->
                    [{c, P, _, _}] = supervisor:which_children(Sup),
                    M = monitor(process, P),
                    exit(P, boom),
                    receive {'DOWN', M, process, P, _} -> ok end
            end,
    Crash(), Crash(),
    show({still_alive, is_process_alive(Sup)}),
    [{c, P, _, _}] = supervisor:which_children(Sup),
    exit(P, boom),
    show(receive {'EXIT', Sup, R} -> {sup_exit, R} after 2000 -> timeout end),
    %% A supervisor whose child fails to start fails start_link itself.
    show(supervisor:start_link(?MODULE, failing_child)),
    show(receive {'EXIT', _, R2} -> {start_exit, R2} after 500 -> no_exit end),
    show(supervisor:start_link(?MODULE, bad_init)),
    show(receive {'EXIT', _, R3} -> {start_exit, R3} after 500 -> no_exit end),
    show(supervisor:start_link(?MODULE, ignore)),
    show(receive {'EXIT', _, R4} -> {ignore_exit, R4} after 500 -> no_exit end),
    ok.

%% A child that traps exits and ignores shutdown: brutal_kill kills at once, a timeout kills
%% after the timeout, infinity waits until the child goes by itself.
shutdowns() ->
    {ok, Sup} = supervisor:start_link(?MODULE, empty),
    Me = self(),
    [begin
         {ok, P} = supervisor:start_child(Sup, #{id => Id, start => {?MODULE, stubborn, [{Me, Id}]},
                                                 shutdown => Sd}),
         Mon = monitor(process, P),
         Res = supervisor:terminate_child(Sup, Id),
         Why = receive {'DOWN', Mon, process, P, W} -> W end,
         Saw = receive {saw, Id, S} -> S after 0 -> nothing end,
         show({Id, Res, Why, Saw})
     end || {Id, Sd} <- [{brutal, brutal_kill}, {timed, 50}, {inf, infinity}, {polite, 5000}]],
    %% A supervisor child gets infinity by default.
    {ok, _} = supervisor:start_child(Sup, #{id => sub, start => {supervisor, start_link, [?MODULE, empty]},
                                            type => supervisor}),
    show(supervisor:get_childspec(Sup, sub)),
    show(supervisor:count_children(Sup)),
    stop_sup(Sup).

%% OTP 24+: significant children and auto_shutdown.
auto_shutdown() ->
    {ok, Sup} = supervisor:start_link(?MODULE, {auto, any_significant}),
    [{s1, S1, _, _}] = [C || {s1, _, _, _} = C <- supervisor:which_children(Sup)],
    S1 ! {exit, normal},
    show(receive {'EXIT', Sup, R} -> {auto_any, R} after 2000 -> timeout end),
    {ok, Sup2} = supervisor:start_link(?MODULE, {auto, all_significant}),
    [{s1, A1, _, _}] = [C || {s1, _, _, _} = C <- supervisor:which_children(Sup2)],
    exit_and_wait(A1, normal),
    show({all_one_gone, is_process_alive(Sup2), supervisor:count_children(Sup2)}),
    [{s2, A2, _, _}] = [C || {s2, _, _, _} = C <- supervisor:which_children(Sup2)],
    A2 ! {exit, normal},
    show(receive {'EXIT', Sup2, R2} -> {auto_all, R2} after 2000 -> timeout end),
    show(supervisor:start_link(?MODULE, {auto_bad, never})),
    show(receive {'EXIT', _, R3} -> {start_exit, R3} after 500 -> no_exit end),
    ok.

bad_specs() ->
    show(supervisor:start_link(?MODULE, bad_flags)),
    show(receive {'EXIT', _, R} -> {start_exit, R} after 500 -> no_exit end),
    show(supervisor:start_link(?MODULE, dup_ids)),
    show(receive {'EXIT', _, R2} -> {start_exit, R2} after 500 -> no_exit end),
    ok.

%% The child exits; once its 'DOWN' is here, the supervisor has its 'EXIT' ahead of our next call.
exit_and_wait(P, Why) ->
    M = monitor(process, P),
    P ! {exit, Why},
    receive {'DOWN', M, process, P, Why} -> ok end.

gen_call(P, Msg) -> P ! {call, self(), Msg}, receive {reply, P, R} -> R after 1000 -> timeout end.

init({strategy, S}) ->
    {ok, {#{strategy => S, intensity => 5, period => 10},
          [#{id => Id, start => {?MODULE, start_child, [Id]}} || Id <- [a, b, c]]}};
init(simple) ->
    {ok, {#{strategy => simple_one_for_one, intensity => 5, period => 10},
          [#{id => dyn, start => {?MODULE, start_child, []}, restart => transient}]}};
init(empty) -> {ok, {#{}, []}};
init(intensity) ->
    {ok, {#{strategy => one_for_one, intensity => 2, period => 10},
          [#{id => c, start => {?MODULE, start_child, [c]}}]}};
init(failing_child) ->
    {ok, {#{}, [#{id => f, start => {?MODULE, start_child, [error_me]}}]}};
init(bad_init) -> {error, nope};
init(ignore) -> ignore;
init({auto, Mode}) ->
    {ok, {#{auto_shutdown => Mode},
          [#{id => Id, start => {?MODULE, start_child, [Id]}, restart => transient, significant => true}
           || Id <- [s1, s2]] ++ [#{id => plain, start => {?MODULE, start_child, [plain]}}]}};
init({auto_bad, Mode}) ->
    %% significant children are not allowed with auto_shutdown => never.
    {ok, {#{auto_shutdown => Mode},
          [#{id => s, start => {?MODULE, start_child, [s]}, restart => transient, significant => true}]}};
init(bad_flags) -> {ok, {#{strategy => sideways}, []}};
init(dup_ids) -> {ok, {#{}, [#{id => x, start => {?MODULE, start_child, [x]}},
                             #{id => x, start => {?MODULE, start_child, [y]}}]}}.

start_child(ignore_me) -> ignore;
start_child(error_me) -> {error, refused};
start_child(crash_me) -> exit(crashed_in_start);
start_child(bad_return) -> weird;
start_child(Name) -> {ok, proc_lib:spawn_link(?MODULE, child, [Name])}.

child(Name) ->
    receive
        {call, From, name} -> From ! {reply, self(), Name}, child(Name);
        {exit, Why} -> exit(Why)
    end.

stubborn({Me, Id}) ->
    {ok, proc_lib:spawn_link(fun() ->
                                     process_flag(trap_exit, true),
                                     stubborn_loop(Me, Id)
                             end)}.
stubborn_loop(Me, Id) ->
    receive
        {'EXIT', _, shutdown} when Id =:= inf; Id =:= polite ->
            Me ! {saw, Id, shutdown},
            timer:sleep(30),
            exit(shutdown);
        {'EXIT', _, Why} -> Me ! {saw, Id, Why}, stubborn_loop(Me, Id)
    end.

start_bad(_) -> ok.
