-module(otp_apps).
%% An application (loaded from an in-memory spec) started, queried and stopped through OTP's
%% application controller and master; global and via names for gen_server; supervisor_bridge.
-behaviour(application).
-export([main/0, start/2, prep_stop/1, stop/1, init/1, handle_call/3, handle_cast/2, handle_info/2,
         terminate/2, bridge_start/0]).

show(X) -> io:format("~p~n", [X]).

main() ->
    logger:set_primary_config(level, none),
    register(otp_apps_tester, self()),
    apps(),
    names(),
    bridge(),
    ok.

spec(Name, Extra) ->
    {application, Name, [{description, "test app"}, {vsn, "1.2.3"}, {modules, [?MODULE]},
                         {registered, []}, {applications, [kernel, stdlib]},
                         {env, [{key1, value1}, {key2, 2}]} | Extra]}.

apps() ->
    show(application:load(spec(app_a, [{mod, {?MODULE, app_a}}]))),
    show(application:load(spec(app_a, []))),
    show(application:get_key(app_a, vsn)),
    show(application:get_env(app_a, key1)),
    show(application:get_env(app_a, nokey)),
    show(application:get_env(app_a, nokey, dflt)),
    show(lists:sort(application:get_all_env(app_a))),
    show(application:set_env(app_a, key3, three)),
    show(application:get_env(app_a, key3)),
    show(application:unset_env(app_a, key3)),
    show(application:get_env(app_a, key3)),
    show(lists:keymember(app_a, 1, application:loaded_applications())),
    show(application:start(app_a)),
    show(application:start(app_a)),
    show([{A, D, V} || {A, D, V} <- application:which_applications(), A =:= app_a]),
    [{app_a_sup, Sup, supervisor, _}] = [C || C = {app_a_sup, _, _, _} <- supervisor:which_children(app_a_top)],
    show(application:get_application(Sup)),
    show(application:get_application(self())),
    show(whereis(app_a_top) =/= undefined),
    show(application:stop(app_a)),
    show(receive {prep_stop, S} -> {prep_stop_called, S} after 1000 -> none end),
    show(receive {stopped, S2} -> {stop_called, S2} after 1000 -> none end),
    show(whereis(app_a_top)),
    show(application:stop(app_a)),
    show(application:unload(app_a)),
    show(application:get_key(app_a, vsn)),
    %% Dependencies: app_b needs app_c; start fails until ensure_all_started.
    ok = application:load(spec(app_c, [])),
    ok = application:load({application, app_b, [{applications, [kernel, stdlib, app_c]}, {modules, []}, {registered, []}]}),
    show(application:start(app_b)),
    show(application:ensure_all_started(app_b)),
    show(application:ensure_all_started(app_b)),
    show(application:ensure_started(app_c)),
    show(application:stop(app_c)),
    show([A || {A, _, _} <- application:which_applications(), A =:= app_b orelse A =:= app_c]),
    show(application:start(no_such_app)),
    %% An application whose start callback fails.
    ok = application:load(spec(app_bad, [{mod, {?MODULE, fail}}])),
    show(application:start(app_bad)),
    ok.

names() ->
    {ok, G} = gen_server:start({global, otp_apps_g}, ?MODULE, server, []),
    show(global:whereis_name(otp_apps_g) =:= G),
    show(gen_server:call({global, otp_apps_g}, ping)),
    show(gen_server:start({global, otp_apps_g}, ?MODULE, server, []) =:= {error, {already_started, G}}),
    show(lists:member(otp_apps_g, global:registered_names())),
    show(gen_server:call({via, global, otp_apps_g}, ping)),
    ok = gen_server:stop({global, otp_apps_g}),
    show(global:whereis_name(otp_apps_g)),
    {ok, V} = gen_server:start({via, global, otp_apps_v}, ?MODULE, server, []),
    show(global:whereis_name(otp_apps_v) =:= V),
    gen_server:cast({via, global, otp_apps_v}, {note, self()}),
    show(receive noted -> noted after 1000 -> none end),
    show(global:register_name(otp_apps_v, self())),
    show(global:unregister_name(otp_apps_v)),
    show(global:whereis_name(otp_apps_v)),
    show(global:register_name(otp_apps_me, self())),
    show(global:send(otp_apps_me, via_global) =:= self()),
    show(receive via_global -> got_via_global after 1000 -> none end =:= got_via_global),
    show(catch global:send(otp_apps_nobody, x)),
    ok.

bridge() ->
    process_flag(trap_exit, true),
    {ok, B} = supervisor_bridge:start_link({local, otp_apps_bridge}, ?MODULE, bridge),
    show(is_pid(B)),
    [Sub] = [P || P <- element(2, process_info(B, links)), P =/= self()],
    show(is_process_alive(Sub)),
    exit(Sub, crash),
    show(receive {'EXIT', B, R} -> {bridge_exit, R} after 1000 -> none end),
    {ok, B2} = supervisor_bridge:start_link(?MODULE, bridge),
    [Sub2] = [P || P <- element(2, process_info(B2, links)), P =/= self()],
    Mon = monitor(process, Sub2),
    exit(B2, shutdown),
    show(receive {'DOWN', Mon, process, Sub2, R2} -> {sub_down, R2} after 1000 -> none end),
    show(receive {'EXIT', B2, R3} -> {bridge_exit, R3} after 1000 -> none end),
    show(supervisor_bridge:start_link(?MODULE, bridge_ignore)),
    show(supervisor_bridge:start_link(?MODULE, bridge_error)),
    show(receive {'EXIT', _, R4} -> {start_exit, R4} after 500 -> no_exit end),
    ok.

%% application callbacks
start(normal, app_a) ->
    supervisor:start_link({local, app_a_top}, ?MODULE, top);
start(normal, fail) -> {error, refused}.
prep_stop(S) -> catch otp_apps_tester ! {prep_stop, S}, S.
stop(S) -> catch otp_apps_tester ! {stopped, S}, ok.

%% supervisor, gen_server and supervisor_bridge init (one init/1 for all)
init(top) -> {ok, {#{}, [#{id => app_a_sup, start => {supervisor, start_link, [?MODULE, inner]}, type => supervisor}]}};
init(inner) -> {ok, {#{}, []}};
init(server) -> {ok, none};
init(bridge) -> {ok, proc_lib:spawn_link(?MODULE, bridge_start, []), bridge_state};
init(bridge_ignore) -> ignore;
init(bridge_error) -> {error, bridge_refused}.

bridge_start() -> receive after infinity -> ok end.

handle_call(ping, _From, S) -> {reply, pong, S}.
handle_cast({note, Pid}, S) -> Pid ! noted, {noreply, S}.
handle_info(_, S) -> {noreply, S}.
terminate(_, _) -> ok.
