-module(trace_call_time).
-export([main/0, f/1, g/1, loop/1, thrower/1, worker/0]).
%% erlang:trace_pattern(MFA, Spec, [call_time]) and trace_info(MFA, call_time): calls counted per
%% call-traced process (times are printed only as "some time was counted"), tail recursion,
%% exceptions through timed functions, pause/restart/false, the 'all' item, a process without the
%% call flag, and eprof (which is built on call_time) profiling named functions.
f(N) -> lists:sum([g(X) || X <- lists:seq(1, N)]).
g(X) -> X * X.
loop(0) -> done;
loop(N) -> loop(N - 1).
thrower(X) -> throw(X).
worker() -> receive {go, From} -> From ! {done, f(10)} end.

info(F, A) ->
    case erlang:trace_info({?MODULE, F, A}, call_time) of
        {call_time, L} when is_list(L) -> {call_time, [{C, is_integer(S) andalso is_integer(Us)} || {_Pid, C, S, Us} <- L]};
        Other -> Other
    end.

main() ->
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true, [call_time])]),
    io:format("~p~n", [[info(F, A) || {F, A} <- [{f, 1}, {g, 1}, {loop, 1}]]]),
    erlang:trace(self(), true, [call]),
    f(100), loop(1000),
    [catch thrower(N) || N <- [1, 2, 3]],
    io:format("~p~n", [[info(F, A) || {F, A} <- [{f, 1}, {g, 1}, {loop, 1}, {thrower, 1}, {main, 0}]]]),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, g, 1}, pause, [call_time])]),
    f(10),
    io:format("~p ~p~n", [info(g, 1), info(f, 1)]),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, g, 1}, restart, [call_time])]),
    f(5),
    io:format("~p~n", [info(g, 1)]),
    {all, All} = erlang:trace_info({?MODULE, g, 1}, all),
    io:format("~p~n", [[K || {K, _} <- All]]),
    %% a process without the call flag is not counted
    W = spawn(?MODULE, worker, []),
    W ! {go, self()}, receive {done, _} -> ok end,
    io:format("~p~n", [info(g, 1)]),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [call_time])]),
    io:format("~p~n", [info(g, 1)]),
    erlang:trace(self(), false, [call]),
    io:format("~p~n", [catch erlang:trace_pattern({?MODULE, g, 1}, [{'_', [], []}], [call_time])]),
    %% eprof on top of call_time: the calls of named functions
    {ok, _} = eprof:start(),
    {ok, 338350} = eprof:profile([], ?MODULE, f, [100]),
    {ok, _} = eprof:profile([], fun() -> loop(20) end, {?MODULE, '_', '_'}),
    eprof:stop(),
    ok.
