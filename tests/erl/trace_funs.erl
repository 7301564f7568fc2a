-module(trace_funs).
-export([main/0, run/0]).
%% Calls of closures pass their function's local breakpoints, as in erts: call_count, call_time and
%% local trace patterns count and trace '-run/0-fun-N-' functions, free variables included in
%% the traced arguments.
run() ->
    K = 10,
    F = fun(X) -> X + K end,
    G = fun(X) -> X * 2 end,
    L = lists:map(F, [1, 2, 3]),
    M = [G(X) || X <- L],
    lists:foreach(fun(_) -> ok end, M),
    lists:sum(M).

main() ->
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true, [call_count])]),
    run(), run(),
    Counts = [{F, A, erlang:trace_info({?MODULE, F, A}, call_count)} || {F, A} <- ?MODULE:module_info(functions)],
    io:format("~p~n", [lists:sort(Counts)]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [call_count]),
    Self = self(),
    T = spawn(fun() -> (fun Lp(Acc) -> receive {trace, _, call, {_, Fn, Args}} -> Lp([{Fn, Args} | Acc]); {dump, P} -> P ! {calls, lists:reverse(Acc)} end end)([]) end),
    erlang:trace_pattern({?MODULE, '_', '_'}, true, [local]),
    erlang:trace(self(), true, [call, {tracer, T}]),
    run(),
    erlang:trace(self(), false, [call]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    timer:sleep(100),
    T ! {dump, Self},
    receive {calls, Cs} -> io:format("~p~n", [Cs]) end,
    erlang:trace_pattern({?MODULE, '_', '_'}, true, [call_time]),
    erlang:trace(self(), true, [call]),
    run(),
    erlang:trace(self(), false, [call]),
    io:format("~p~n", [lists:sort([{F, A, C} || {F, A} <- ?MODULE:module_info(functions),
                                              {call_time, [{_, C, _, _}]} <- [erlang:trace_info({?MODULE, F, A}, call_time)]])]).
