-module(stats_runtime).
-export([main/0]).
%% statistics(runtime) is CPU time of the VM, statistics(wall_clock) elapsed time; both return
%% {Total, SinceLastCall}. Prints only booleans (the values are timings).
main() ->
    {R0, _} = statistics(runtime),
    {W0, _} = statistics(wall_clock),
    io:format("integers ~p~n", [is_integer(R0) andalso R0 >= 0 andalso is_integer(W0) andalso W0 >= 0]),
    %% Since-last-call is the difference between consecutive totals.
    {R1, _} = statistics(runtime),
    {R2, D2} = statistics(runtime),
    io:format("runtime since last ~p~n", [D2 =:= R2 - R1]),
    %% Computing advances it (bounded in wall time: the machine may be busy).
    io:format("busy loop uses cpu ~p~n", [busy(R2 + 50, erlang:monotonic_time(millisecond) + 20000)]),
    {W1, _} = statistics(wall_clock),
    timer:sleep(50),
    {W2, DW} = statistics(wall_clock),
    io:format("wall since last ~p ~p~n", [DW =:= W2 - W1, DW >= 50]),
    %% Sleeping costs (almost) no CPU: runtime is not uptime. Runtime is the whole OS process's
    %% CPU time, and a JVM's compiler threads may still be busy for a second or two after boot,
    %% so either of two consecutive one-second sleeps may show it (uptime would show in both).
    {R3, _} = statistics(runtime),
    timer:sleep(1000),
    {R4, _} = statistics(runtime),
    timer:sleep(1000),
    {R5, _} = statistics(runtime),
    io:format("sleep is not cpu ~p~n", [R4 - R3 < 500 orelse R5 - R4 < 500]),
    io:format("bad ~p~n", [try statistics(no_such_item) catch error:E -> E end]).

busy(Cpu, Until) ->
    {R, _} = statistics(runtime),
    case R >= Cpu orelse erlang:monotonic_time(millisecond) >= Until of
        true -> R >= Cpu;
        false -> _ = lists:sum(lists:seq(1, 10000)), busy(Cpu, Until)
    end.
