-module(proc_initial_call).
%% process_info(P, initial_call): erts reports {erlang,apply,2} for any process spawned with a fun.
-export([main/0, f/0]).
f() -> receive _ -> ok end.
main() ->
    P1 = spawn(fun() -> receive _ -> ok end end),
    P2 = spawn(?MODULE, f, []),
    P3 = spawn(fun ?MODULE:f/0),
    P4 = spawn_link(fun f/0),
    P5 = proc_lib:spawn(fun f/0),
    P6 = erlang:spawn_opt(fun() -> f() end, [{priority, low}]),
    [io:format("~p ~p~n", [I, [process_info(P, K) || K <- [initial_call, current_function]]]) || {I, P} <- lists:zip(lists:seq(1,6), [P1,P2,P3,P4,P5,P6])],
    io:format("~p~n", [proc_lib:initial_call(P5)]),
    io:format("~p~n", [proc_lib:translate_initial_call(P1)]),
    [exit(P, kill) || P <- [P1,P2,P3,P4,P5,P6]],
    ok.
