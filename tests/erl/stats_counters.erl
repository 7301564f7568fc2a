-module(stats_counters).
%% statistics(reductions | exact_reductions | context_switches | garbage_collection) count real
%% work: totals grow with it, the second element of reductions is the change since the last call.
-export([main/0]).

spin(0) -> ok;
spin(N) -> spin(N - 1).

main() ->
    {R0, _} = statistics(reductions),
    {E0, _} = statistics(exact_reductions),
    {C0, 0} = statistics(context_switches),
    {G0, _, 0} = statistics(garbage_collection),
    Ps = [spawn_monitor(fun() -> spin(200000), erlang:yield(), spin(1000) end) || _ <- lists:seq(1, 20)],
    [receive {'DOWN', Ref, process, Pid, normal} -> ok end || {Pid, Ref} <- Ps],
    {R1, D1} = statistics(reductions),
    {E1, _} = statistics(exact_reductions),
    {C1, 0} = statistics(context_switches),
    {G1, _, 0} = statistics(garbage_collection),
    io:format("reductions grew by the work: ~p~n", [R1 - R0 >= 20 * 200000]),
    io:format("since last equals the growth: ~p~n", [D1 =:= R1 - R0]),
    io:format("exact reductions grew: ~p~n", [E1 - E0 >= 20 * 200000]),
    io:format("context switches grew: ~p~n", [C1 - C0 >= 40]),
    io:format("gcs never go down: ~p~n", [G1 >= G0]),
    {_, D2} = statistics(reductions),
    io:format("small since-last right after: ~p~n", [D2 < 200000]),
    io:format("types: ~p~n", [[is_integer(X) || X <- [R1, D1, E1, C1, G1]]]),
    ok.
