-module(system_processes).
-export([main/0]).
%% erts' first processes, in erl's order: init <0.0.0>, the code purger <0.1.0>, the literal
%% area collector, three dirty-process signal handlers (normal, high, max), prim_file's helper.
main() ->
    io:format("init ~p~n", [whereis(init) =:= c:pid(0, 0, 0)]),
    io:format("purger ~p~n", [whereis(erts_code_purger) =:= c:pid(0, 1, 0)]),
    [io:format("~p ~p~n", [N, info(c:pid(0, N, 0))]) || N <- lists:seq(0, 6)],
    ok.

info(P) ->
    [{K, V} || {K, V} <- process_info(P, [initial_call, priority, trap_exit, registered_name])].
