-module(system_monitor_signals).
%% erlang:system_monitor/0,1,2 settings as erts keeps them (order, minimums, repeated options,
%% turning off, a dead monitor process) and os:set_signal/2's accepted signals and options.
-export([main/0]).
main() ->
    [io:format("~p ~p~n", [S, err(catch os:set_signal(S, default))])
     || S <- [sighup, sigint, sigquit, sigill, sigabrt, sigalrm, sigterm, sigusr1, sigusr2, sigchld, sigstop, sigtstp,
              sigkill, sigsegv, sigpipe, foo, "sighup"]],
    io:format("~p~n", [catch os:set_signal(sighup, bad)]),
    io:format("~p~n", [catch os:set_signal(sighup, ignore)]),
    %% The monitor process ignores what it receives: on a loaded machine a long_schedule event can
    %% arrive during the test, and a process that exited on it would clear the setting (as erts does).
    P = spawn(fun Loop() -> receive _ -> Loop() end end),
    Show = fun(undefined) -> undefined; ({Pid, Opts}) -> {Pid =:= P, Pid =:= self(), Opts} end,
    io:format("~p~n", [Show(erlang:system_monitor(P, [busy_dist_port, {large_heap, 10}, {long_schedule, 5}, {long_gc, 1}, busy_port]))]),
    io:format("~p~n", [Show(erlang:system_monitor())]),
    io:format("~p~n", [Show(erlang:system_monitor(P, []))]),
    io:format("~p~n", [Show(erlang:system_monitor())]),
    io:format("~p~n", [err(catch erlang:system_monitor(P, [foo]))]),
    io:format("~p~n", [err(catch erlang:system_monitor(P, [{long_gc, -1}]))]),
    io:format("~p~n", [err(catch erlang:system_monitor(P, [{long_gc, x}]))]),
    io:format("~p~n", [err(catch erlang:system_monitor(P, not_a_list))]),
    io:format("~p~n", [err(catch erlang:system_monitor(foo, []))]),
    io:format("~p~n", [err(catch erlang:system_monitor(foo, [busy_port]))]),
    io:format("~p~n", [Show(erlang:system_monitor({P, [{long_gc, 5}, {long_gc, 7}]}))]),
    io:format("~p~n", [Show(erlang:system_monitor())]),
    [begin erlang:system_monitor(P, [{large_heap, N}]), {_, [{large_heap, V}]} = erlang:system_monitor(), io:format("~p->~p ", [N, V]) end
     || N <- [0, 100, 16384, 16385, 100000]],
    io:format("~n"),
    exit(P, kill), timer:sleep(10),
    io:format("~p~n", [Show(erlang:system_monitor())]),
    io:format("~p~n", [Show(erlang:system_monitor(self(), [{long_gc, 0}, {long_schedule, 0}]))]),
    io:format("~p~n", [Show(erlang:system_monitor(undefined))]),
    io:format("~p~n", [err(catch erlang:system_monitor(undefined, []))]),
    io:format("~p~n", [err(catch erlang:system_monitor(bad))]),
    ok.
err({'EXIT', {R, _}}) -> {'EXIT', R};
err(X) -> X.
