-module(trace_call_count).
%% call_count patterns (cprof's mechanism): counts of local and external calls, pause, restart, a
%% global pattern replacing the counter, trace_info shapes and errors.
-export([main/0, f/1, g/1]).
f(X) -> g(X) + 1.
g(X) -> X * 2.
h(X) -> X.
main() ->
    io:format("~p~n", [erlang:trace_pattern({trace_call_count, '_', '_'}, true, [call_count])]),
    io:format("~p~n", [[erlang:trace_info({trace_call_count, F, A}, I) || {F, A} <- [{f, 1}, {g, 1}, {h, 1}], I <- [call_count, traced]]]),
    [trace_call_count:f(I) || I <- lists:seq(1, 5)],
    h(1),
    io:format("~p~n", [[erlang:trace_info({trace_call_count, F, A}, call_count) || {F, A} <- [{f, 1}, {g, 1}, {h, 1}, {main, 0}]]]),
    io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, pause, [call_count])]),
    [trace_call_count:f(I) || I <- lists:seq(1, 5)],
    io:format("~p~n", [[erlang:trace_info({trace_call_count, F, A}, call_count) || {F, A} <- [{f, 1}, {g, 1}]]]),
    io:format("~p~n", [erlang:trace_pattern({trace_call_count, f, 1}, restart, [call_count])]),
    trace_call_count:f(1),
    io:format("~p~n", [[erlang:trace_info({trace_call_count, F, A}, call_count) || {F, A} <- [{f, 1}, {g, 1}]]]),
    io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, all)]),
    io:format("~p~n", [erlang:trace_pattern({trace_call_count, '_', '_'}, true, [global])]),
    io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, all)]),
    io:format("~p~n", [erlang:trace_pattern({trace_call_count, '_', '_'}, false, [call_count])]),
    io:format("~p~n", [erlang:trace_info({trace_call_count, f, 1}, all)]),
    io:format("~p~n", [[erlang:trace_info({trace_call_count, F, A}, call_count) || {F, A} <- [{f, 1}, {g, 1}]]]),
    io:format("~p~n", [catch erlang:trace_pattern({trace_call_count, '_', '_'}, [{'_',[],[]}], [call_count])]),
    io:format("~p~n", [catch erlang:trace_pattern({trace_call_count, '_', '_'}, true, [call_count, local])]),
    io:format("~p~n", [catch erlang:trace_pattern({trace_call_count, '_', '_'}, pause, [])]),
    io:format("~p~n", [catch erlang:trace_pattern({trace_call_count, '_', '_'}, restart, [global])]),
    %% on_load: modules loaded from now on are counted (cprof:start/0 does this)
    io:format("on_load ~p ~p~n", [erlang:trace_pattern(on_load, true, [call_count]), erlang:trace_info(on_load, all)]),
    false = code:is_loaded(sofs),
    {module, sofs} = code:ensure_loaded(sofs),
    S = sofs:set([a, b]),
    [a, b] = sofs:to_external(S),
    io:format("sofs ~p~n", [[erlang:trace_info({sofs, F, A}, call_count) || {F, A} <- [{set, 1}, {to_external, 1}, {is_set, 1}, {union, 2}]]]),
    io:format("on_load off ~p ~p~n", [erlang:trace_pattern(on_load, false, [call_count]), erlang:trace_info(on_load, all)]),
    io:format("off ~p~n", [erlang:trace_pattern({sofs, '_', '_'}, false, [call_count]) > 100]),
    ok.
