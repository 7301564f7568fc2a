-module(otp_pg_timer).
%% pg (OTP 23+ process groups, scopes, monitor_scope/monitor from OTP 25.1) and the timer module
%% (apply_after, send_interval, cancel, tc, sleep) — kernel/stdlib unmodified.
-export([main/0, tick/2, work/1]).

show(X) -> io:format("~p~n", [X]).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.

main() ->
    pg_tests(),
    timer_tests(),
    ok.

idle() -> receive stop -> ok end.

%% Members as markers: self / a / b (no pids printed).
names(L, Map) -> lists:sort([maps:get(P, Map, other) || P <- L]).

pg_tests() ->
    {ok, Scope} = pg:start_link(my_scope),
    show(is_pid(Scope)),
    show(pg:start(my_scope) =:= {error, {already_started, Scope}}),
    Me = self(),
    A = spawn(fun idle/0),
    B = spawn(fun idle/0),
    Names = #{Me => self, A => a, B => b},
    show(pg:join(my_scope, g1, Me)),
    show(pg:join(my_scope, g1, [A, B])),
    show(pg:join(my_scope, g2, [A, A])),
    show(names(pg:get_members(my_scope, g1), Names)),
    show(names(pg:get_local_members(my_scope, g1), Names)),
    show(names(pg:get_members(my_scope, g2), Names)),
    show(lists:sort(pg:which_groups(my_scope))),
    show(pg:get_members(my_scope, nope)),
    show(pg:leave(my_scope, g2, A)),
    show(names(pg:get_members(my_scope, g2), Names)),
    show(pg:leave(my_scope, g2, [A, B])),
    show(pg:leave(my_scope, nope, A)),
    show(t(fun() -> pg:join(my_scope, g1, not_a_pid) end)),
    %% A member that exits leaves all its groups.
    MonRef = monitor(process, B),
    B ! stop,
    receive {'DOWN', MonRef, process, B, _} -> ok end,
    _ = sys:get_state(Scope), % pg has handled B's 'DOWN' once this returns
    show(names(pg:get_members(my_scope, g1), Names)),
    %% monitor_scope: the current groups, then join/leave notifications.
    {Ref, Groups} = pg:monitor_scope(my_scope),
    show(maps:map(fun(_, Ps) -> names(Ps, Names) end, Groups)),
    ok = pg:join(my_scope, g3, A),
    show(receive {Ref, join, G, Ps} -> {join, G, names(Ps, Names)} after 5000 -> none end),
    ok = pg:leave(my_scope, g3, A),
    show(receive {Ref, leave, G2, Ps2} -> {leave, G2, names(Ps2, Names)} after 5000 -> none end),
    show(pg:demonitor(my_scope, Ref)),
    ok = pg:join(my_scope, g3, A),
    show(receive {Ref, _, _, _} -> still_notified after 100 -> quiet end),
    %% monitor one group.
    {Ref2, Members} = pg:monitor(my_scope, g3),
    show(names(Members, Names)),
    A ! stop,
    show(receive {Ref2, leave, g3, Ps3} -> {leave_on_exit, names(Ps3, Names)} after 5000 -> none end),
    show(pg:demonitor(my_scope, Ref2)),
    show(lists:sort(pg:which_groups(my_scope))),
    %% The default scope is started by kernel only when configured; start it here.
    {ok, _} = pg:start(pg),
    ok = pg:join(dg, Me),
    show(names(pg:get_members(dg), Names)),
    show(pg:which_groups()),
    ok = pg:leave(dg, Me),
    show(pg:which_groups()),
    show(pg:get_members(dg)),
    unlink(Scope),
    exit(Scope, kill),
    ok.

timer_tests() ->
    Me = self(),
    {ok, T1} = timer:apply_after(20, ?MODULE, work, [Me]),
    show(receive {worked, X} -> X after 5000 -> none end),
    show(timer:cancel(T1)),
    {ok, T2} = timer:apply_after(5000, ?MODULE, work, [Me]),
    show(timer:cancel(T2)),
    show(receive {worked, _} -> fired_anyway after 100 -> cancelled end),
    {ok, T3} = timer:send_after(10, hello),
    show(receive hello -> got_hello after 5000 -> none end),
    _ = T3,
    {ok, T4} = timer:send_after(10, Me, {to, me}),
    show(receive {to, me} -> got_to_me after 5000 -> none end),
    _ = T4,
    {ok, TI} = timer:send_interval(15, tick),
    show(count(tick, 3)),
    show(timer:cancel(TI)),
    timer:sleep(50),
    flush(tick),
    timer:sleep(50),
    show(receive tick -> interval_still_running after 0 -> stopped end),
    {ok, TA} = timer:apply_interval(15, ?MODULE, tick, [Me, applied]),
    show(count(applied, 3)),
    {ok, cancel} = timer:cancel(TA),
    show(t(fun() -> timer:cancel(not_a_timer) end)),
    show(t(fun() -> timer:send_after(-1, x) end)),
    show(t(fun() -> timer:apply_after(foo, m, f, []) end)),
    {Time, Val} = timer:tc(fun() -> timer:sleep(20), done end),
    show({Val, Time >= 20000}),
    {Time2, Val2} = timer:tc(lists, seq, [1, 3]),
    show({Val2, is_integer(Time2)}),
    {Time3, Val3} = timer:tc(fun(X) -> X * 2 end, [21]),
    show({Val3, is_integer(Time3)}),
    show([timer:seconds(2), timer:minutes(1), timer:hours(1), timer:hms(1, 2, 3)]),
    show(timer:sleep(1)),
    show(t(fun() -> timer:sleep(-1) end)),
    %% exit_after / kill_after.
    process_flag(trap_exit, true),
    P = spawn_link(fun idle/0),
    {ok, _} = timer:exit_after(10, P, bye),
    show(receive {'EXIT', P, R} -> {exit_after, R} after 5000 -> none end),
    P2 = spawn_link(fun() -> process_flag(trap_exit, true), idle() end),
    {ok, _} = timer:kill_after(10, P2),
    show(receive {'EXIT', P2, R2} -> {kill_after, R2} after 5000 -> none end),
    ok.

work(Pid) -> Pid ! {worked, 42}.
tick(Pid, Msg) -> Pid ! Msg.
count(_, 0) -> all;
count(M, N) -> receive M -> count(M, N - 1) after 5000 -> {missing, N} end.
flush(M) -> receive M -> flush(M) after 0 -> ok end.
