-module(system_info_items).
%% erlang:system_info/1 items OTP programs read, compared with erl on the same machine: the
%% kernel version, the detected CPU topology, the time sources' descriptions (keys and fixed
%% fields), the default max_heap_size, and the items this OTP release (25.2) does not have.
-export([main/0]).

main() ->
    io:format("os_version ~p ~p~n", [erlang:system_info(os_version) =:= os:version(), tuple_size(os:version())]),
    {Maj, Min, _} = os:version(),
    io:format("os_version major/minor ~p~n", [{Maj, Min}]),
    io:format("cpu_topology ~p~n", [erlang:system_info(cpu_topology)]),
    io:format("cpu_topology defined/detected/used ~p~n", [[erlang:system_info({cpu_topology, I}) || I <- [defined, detected, used]]]),
    io:format("kernel_poll ~p~n", [erlang:system_info(kernel_poll)]),
    io:format("max_heap_size ~p~n", [erlang:system_info(max_heap_size)]),
    [begin
         L = erlang:system_info(S),
         io:format("~p ~p ~p~n", [S, [K || {K, _} <- L], [KV || {K, _} = KV <- L, K =/= time]])
     end || S <- [os_monotonic_time_source, os_system_time_source]],
    {time, T1} = lists:keyfind(time, 1, erlang:system_info(os_monotonic_time_source)),
    {time, T2} = lists:keyfind(time, 1, erlang:system_info(os_monotonic_time_source)),
    io:format("monotonic source time increases ~p~n", [T2 >= T1]),
    {time, ST} = lists:keyfind(time, 1, erlang:system_info(os_system_time_source)),
    io:format("system source time is os:system_time(nanosecond) ~p~n", [abs(ST - os:system_time(nanosecond)) < 1000000000]),
    [io:format("~p ~p~n", [I, catch_reason(catch erlang:system_info(I))]) || I <- [async_dist, halt_flush_timeout, no_such_item]],
    %% The text reports (their figures differ between the VMs; their layout does not).
    Areas = erlang:system_info(allocated_areas),
    io:format("allocated_areas ~p~n", [[element(1, A) || A <- Areas]]),
    io:format("allocated_areas sizes ~p~n", [lists:all(fun(A) -> lists:all(fun is_integer/1, tl(tuple_to_list(A))) end, Areas)]),
    Procs = erlang:system_info(procs),
    io:format("procs ~p ~p~n", [binary:part(Procs, 0, 9), length(binary:matches(Procs, <<"\n=proc:">>)) + 1 >= 10]),
    Lines = binary:split(Procs, <<"\n">>, [global]),
    io:format("procs fields ~p~n", [lists:usort([F || L <- Lines, [F, _] <- [binary:split(L, <<": ">>)],
                                                   lists:member(F, [<<"State">>, <<"Spawned as">>, <<"Spawned by">>, <<"Message queue length">>, <<"Link list">>, <<"Reductions">>, <<"Memory">>])])]),
    [First, Second | _] = binary:split(erlang:system_info(loaded), <<"\n">>, [global]),
    io:format("loaded ~p ~p~n", [binary:part(First, 0, 14), binary:part(Second, 0, 10)]),
    Info = erlang:system_info(info),
    io:format("info ~p ~p~n", [binary:part(Info, 0, 14), binary:match(Info, <<"=allocated_areas\n">>) =/= nomatch]),
    ok.

catch_reason({'EXIT', {R, _}}) -> {error, R};
catch_reason(X) -> X.
