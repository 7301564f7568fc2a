-module(idle_procs).
-export([main/1]).
%% 1,000,000 idle processes (issue "concurrency"): spawn rate and memory per idle process, run by
%% bench/idle. On erl the memory is the growth of erlang:memory(total) after collecting every
%% process. On jbeam (mode "jbeam") the script measures the live JVM heap with jcmd after a full
%% GC, before and after the spawns; the program waits for a line on stdin at each point.
main([NStr, Mode]) ->
    N = list_to_integer(NStr),
    M0 = measure(Mode, "before"),
    Self = self(),
    {T, ok} = timer:tc(fun() -> spawn_n(N, Self) end),
    io:format("spawned ~p processes in ~p ms (~p k/s)~n", [N, T div 1000, round(N / T * 1000)]),
    M1 = measure(Mode, "after"),
    Mode =:= "erl" andalso io:format("~p bytes per process~n", [round((M1 - M0) / N)]),
    halt().
spawn_n(0, _) -> ok;
spawn_n(N, Self) -> spawn(fun() -> receive stop -> Self end end), spawn_n(N - 1, Self).
measure("erl", _) ->
    [erlang:garbage_collect(P) || P <- processes()],
    erlang:memory(total);
measure(_, What) ->
    io:format("measure ~s ~s~n", [What, os:getpid()]),
    io:get_line(""),
    0.
