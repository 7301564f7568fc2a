-module(race_sweep).
-export([main/0, init/1, handle_call/3, handle_cast/2]).
%% Races between processes on different schedulers, each repeated many times, printed as the
%% invariant that must hold (the same on any correct VM): exit signals through links counted,
%% demonitor flush leaving no 'DOWN', ETS heirs, one winner per registered name, timers that either
%% fire or are cancelled (never both, never neither), per-sender message order, calls to dying
%% servers, trap_exit switched while exits arrive, suspend/resume/kill.
main() ->
    Cases = [{links_all_reported, fun links/0}, {demonitor_flush, fun demonitor_flush/0},
             {ets_heir, fun ets_heir/0}, {register_one_winner, fun register_race/0},
             {timer_fire_or_cancel, fun timers/0}, {send_order, fun send_order/0},
             {call_dying_server, fun call_dying/0}, {trap_exit_flip, fun trap_flip/0},
             {suspend_resume_kill, fun suspend_kill/0}, {spawn_monitor_exit, fun spawn_monitor_exit/0},
             {alias_after_unalias, fun alias_race/0}],
    [io:format("~p: ~p~n", [Name, F()]) || {Name, F} <- Cases],
    ok.

%% 40 linked children die at once, with distinct reasons: every 'EXIT' arrives, once.
links() ->
    lists:usort([begin
        process_flag(trap_exit, true),
        Go = make_ref(),
        Ps = [spawn_link(fun() -> receive Go -> exit({r, I}) end end) || I <- lists:seq(1, 40)],
        [P ! Go || P <- Ps],
        Got = [receive {'EXIT', P, {r, _} = R} -> R after 5000 -> missing end || P <- Ps],
        Extra = receive {'EXIT', _, _} = E -> E after 0 -> none end,
        process_flag(trap_exit, false),
        {lists:sort(Got) =:= [{r, I} || I <- lists:seq(1, 40)], Extra}
    end || _ <- lists:seq(1, 25)]).

%% demonitor(Ref, [flush]) on a process that is exiting right now: no 'DOWN' left afterwards.
demonitor_flush() ->
    lists:usort([begin
        P = spawn(fun() -> receive go -> ok end end),
        Ref = monitor(process, P),
        P ! go,
        erlang:yield(),
        true = demonitor(Ref, [flush]),
        receive {'DOWN', Ref, _, _, _} -> down_left after 0 -> clean end
    end || _ <- lists:seq(1, 200)]).

%% The owner dies; the heir gets the table and its data.
ets_heir() ->
    Me = self(),
    lists:usort([begin
        Owner = spawn(fun() ->
            T = ets:new(heir_t, [set, public, {heir, Me, {gift, I}}]),
            ets:insert(T, {k, I}),
            Me ! {table, T},
            receive die -> ok end
        end),
        T = receive {table, Tab} -> Tab end,
        Owner ! die,
        R = receive {'ETS-TRANSFER', T, Owner, {gift, I}} -> {ets:lookup(T, k) =:= [{k, I}], ets:info(T, owner) =:= Me}
            after 5000 -> no_transfer end,
        ets:delete(T),
        R
    end || I <- lists:seq(1, 100)]).

%% 20 processes register the same name at once: exactly one wins; once it is gone, the name is free.
register_race() ->
    Me = self(),
    lists:usort([begin
        Go = make_ref(),
        Ps = [spawn(fun() -> receive Go -> ok end,
                             R = try register(race_sweep_name, self()) catch error:badarg -> lost end,
                             Me ! {self(), R},
                             receive stop -> ok end
                    end) || _ <- lists:seq(1, 20)],
        [P ! Go || P <- Ps],
        Rs = [receive {P, R} -> R end || P <- Ps],
        Winner = whereis(race_sweep_name),
        Ms = [monitor(process, P) || P <- Ps],
        [P ! stop || P <- Ps],
        [receive {'DOWN', M, _, _, _} -> ok end || M <- Ms],
        {length([x || true <- Rs]), lists:member(Winner, Ps), whereis(race_sweep_name)}
    end || _ <- lists:seq(1, 50)]).

%% A timer cancelled around the time it fires: a cancel that returns a time means no message,
%% false means the message is there.
timers() ->
    lists:usort([begin
        Ref = erlang:start_timer(I rem 3, self(), tick),
        busy(I * 37 rem 2000),
        C = erlang:cancel_timer(Ref),
        Wait = case C of false -> 1000; _ -> 0 end,
        Got = receive {timeout, Ref, tick} -> got after Wait -> none end,
        case {C, Got} of
            {false, got} -> ok;
            {N, none} when is_integer(N) -> ok;
            Other -> {bad, Other}
        end
    end || I <- lists:seq(1, 300)]).

busy(0) -> ok;
busy(N) -> busy(N - 1).

%% 8 senders, 500 messages each, to one receiver: each sender's messages arrive in order.
send_order() ->
    Me = self(),
    Go = make_ref(),
    Ss = [spawn(fun() -> receive Go -> ok end, [Me ! {S, N} || N <- lists:seq(1, 500)] end) || S <- lists:seq(1, 8)],
    [P ! Go || P <- Ss],
    Got = [receive {S, N} -> {S, N} end || _ <- lists:seq(1, 4000)],
    lists:all(fun(S) -> [N || {S2, N} <- Got, S2 =:= S] =:= lists:seq(1, 500) end, lists:seq(1, 8)).

%% A call to a server that stops while the call is under way: a reply or an exit, never a hang.
%% Which of the two comes depends on scheduling (on erl as well), so only anything else is printed.
call_dying() ->
    lists:usort([begin
        {ok, S} = gen_server:start(race_sweep_server(), [], []),
        spawn(fun() -> gen_server:stop(S) end),
        try gen_server:call(S, ping, 5000) of pong -> replied
        catch exit:{Reason, _} when Reason =:= noproc; Reason =:= normal; Reason =:= shutdown -> exited;
              exit:{timeout, _} -> hung
        end
    end || _ <- lists:seq(1, 100)]) -- [replied, exited].

race_sweep_server() -> ?MODULE.

init([]) -> {ok, state}.
handle_call(ping, _From, S) -> {reply, pong, S}.
handle_cast(_, S) -> {noreply, S}.

%% trap_exit switched on and off while an exit signal arrives: the process either died with the
%% reason or has the 'EXIT' message.
trap_flip() ->
    Me = self(),
    lists:usort([begin
        P = spawn(fun() -> flip(200), Me ! {self(), receive {'EXIT', _, boom} -> trapped after 100 -> nothing end} end),
        M = monitor(process, P),
        erlang:yield(),
        exit(P, boom),
        receive
            {P, What} -> receive {'DOWN', M, _, _, normal} -> What end;
            {'DOWN', M, _, _, boom} -> died
        end
    end || _ <- lists:seq(1, 100)]) -- [trapped, died].

flip(0) -> process_flag(trap_exit, true);
flip(N) -> process_flag(trap_exit, N rem 2 =:= 0), flip(N - 1).

%% A process suspended, resumed and killed in quick succession always dies, with killed.
suspend_kill() ->
    lists:usort([begin
        P = spawn(fun() -> busy(1000000), receive never -> ok end end),
        M = monitor(process, P),
        erlang:suspend_process(P),
        erlang:resume_process(P),
        erlang:suspend_process(P),
        exit(P, kill),
        receive {'DOWN', M, _, _, R} -> R after 5000 -> hung end
    end || _ <- lists:seq(1, 100)]).

%% spawn_monitor of a process that exits at once: the 'DOWN' has its reason, never noproc.
spawn_monitor_exit() ->
    lists:usort([begin
        {P, M} = spawn_monitor(fun() -> exit(quick) end),
        receive {'DOWN', M, process, P, R} -> R end
    end || _ <- lists:seq(1, 300)]).

%% A message sent to an alias after unalias is dropped; before, it arrives.
alias_race() ->
    Me = self(),
    lists:usort([begin
        A = alias(),
        P = spawn(fun() -> A ! before, Me ! sent end),
        receive sent -> ok end,
        true = unalias(A),
        P2 = spawn(fun() -> A ! after_unalias, Me ! sent2 end),
        receive sent2 -> ok end,
        _ = {P, P2},
        {receive before -> got_before after 1000 -> lost end,
         receive after_unalias -> leaked after 0 -> dropped end}
    end || _ <- lists:seq(1, 100)]).
