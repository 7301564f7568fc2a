-module(osmon).
-export([main/0]).
main() ->
    application:set_env(os_mon, start_cpu_sup, true),
    logger:set_primary_config(level, error),
    R = application:ensure_all_started(os_mon),
    io:format("start ~p~n", [element(1, R)]),
    io:format("cpu ~p~n", [is_integer(cpu_sup:nprocs())]),
    io:format("avg ~p~n", [is_integer(cpu_sup:avg1())]),
    io:format("util ~p~n", [is_number(cpu_sup:util())]),
    M = memsup:get_system_memory_data(),
    io:format("mem ~p~n", [lists:sort([K || {K, _} <- M])]),
    io:format("disk ~p~n", [is_list(disksup:get_disk_data())]),
    {Tot, Alloc, Worst} = memsup:get_memory_data(),
    io:format("memdata ~p~n", [{is_integer(Tot), is_integer(Alloc), Worst =:= undefined orelse is_tuple(Worst)}]),
    io:format("alarms ~p~n", [is_list(alarm_handler:get_alarms())]),
    application:stop(os_mon),
    ok.
