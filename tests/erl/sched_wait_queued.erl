-module(sched_wait_queued).
-export([main/0]).
%% A receive with no matching clause left waits without using its scheduler, even when unrelated
%% messages sit in its mailbox. `receive after T` (timer:sleep) compiles to a lone wait_timeout
%% whose retry label is itself; jbeam used to retry it while any message was queued, so such a
%% sleep spun its scheduler thread for all of T (never preempted: no reductions), and with every
%% scheduler spinning a woken process could not run (inet_tcp_lazy with the stricter stealing rule).
main() ->
    Self = self(),
    N = erlang:system_info(schedulers) + 1,
    %% N sleepers, each with a stray message queued, sleep 400 ms; meanwhile a quick process
    %% must still get to run and answer.
    [spawn(fun() -> self() ! stray, timer:sleep(400), Self ! {slept, I} end) || I <- lists:seq(1, N)],
    timer:sleep(30),
    spawn(fun() -> Self ! quick end),
    Order = [receive M -> M end || _ <- lists:seq(0, N)],
    io:format("first ~p~n", [hd(Order)]),
    io:format("all ~p~n", [lists:sort(Order) =:= lists:sort([quick | [{slept, I} || I <- lists:seq(1, N)]])]),
    %% The same with a selective receive that skips the queued message and has an after.
    [spawn(fun() -> self() ! stray, receive never -> no after 400 -> Self ! {waited, I} end end) || I <- lists:seq(1, N)],
    timer:sleep(30),
    spawn(fun() -> Self ! quick2 end),
    Order2 = [receive M -> M end || _ <- lists:seq(0, N)],
    io:format("first ~p~n", [hd(Order2)]),
    %% A sleeper with a queued message still sees it afterwards, and a message arriving during a
    %% receive-after still ends it.
    self() ! kept,
    timer:sleep(10),
    io:format("kept ~p~n", [receive kept -> yes after 0 -> no end]),
    self() ! other,
    P = spawn(fun() -> receive go -> Self ! ended end end),
    spawn(fun() -> timer:sleep(20), P ! go end),
    io:format("ended ~p~n", [receive ended -> ended after 2000 -> timeout end]),
    io:format("other ~p~n", [receive other -> yes after 0 -> no end]).
