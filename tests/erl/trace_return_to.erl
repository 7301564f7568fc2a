%% The return_to trace flag: with call tracing of locally traced functions, return_to names the
%% function a traced call returns to (the caller; for a tail call whoever the return goes to),
%% after a BIF too, and the function that catches an exception thrown through a traced call.
%% With {return_trace}, return_from comes first. {caller} in a match spec names the function
%% the call returns to. A spawned process starts with a traced call of erlang:apply/2.
-module(trace_return_to).
-export([main/0, runner/1, a/1, b/1, c/1, d/1, e/0, f/0, g/0, h/1, i/1, child/0]).

a(X) -> Y = b(X), Y + 1.
b(X) -> c(X) * 2.
c(X) -> _ = lists:reverse([X]), _ = lists:member(X, [1, 2]), d(X).
d(X) -> X + 1.
e() -> _ = (catch f()), g().
f() -> throw(x).
g() -> h(3).
h(X) -> X * 10.
i(X) -> lists:member(X, [1, 2]). % a BIF called last
child() -> a(5).

runner(Parent) ->
    receive go -> ok end,
    R = a(1),
    G = e(),
    true = i(2),
    _ = spawn(fun() -> child() end),
    _ = spawn(?MODULE, child, []),
    Parent ! {done, R, G},
    receive stop -> ok end.

main() ->
    P = spawn(?MODULE, runner, [self()]),
    waiting(P),
    erlang:trace_pattern({?MODULE, '_', '_'}, [{'_', [], [{message, {{cp, {caller}}}}]}], [local]),
    erlang:trace_pattern({?MODULE, h, 1}, [{'_', [], [{return_trace}]}], [local]),
    erlang:trace_pattern({lists, '_', '_'}, true, [local]),
    erlang:trace_pattern({lists, member, 2}, [{'_', [], [{message, {{cp, {caller}}}}]}], [local]),
    erlang:trace_pattern({erlang, apply, 2}, true, [local]),
    erlang:trace(P, true, [call, return_to, arity, set_on_spawn]),
    P ! go,
    receive {done, R, G} -> io:format("~p ~p~n", [R, G]) end,
    timer:sleep(100),
    erlang:trace(P, false, [all]),
    P ! stop,
    erlang:trace_pattern({'_', '_', '_'}, false, [local]),
    Msgs = collect([]),
    %% per process (the children run in parallel): the parent first, then each child's events
    Pids = lists:usort([element(2, M) || M <- Msgs]),
    io:format("~p processes~n", [length(Pids)]),
    io:format("~p~n", [[clean(M) || M <- Msgs, element(2, M) =:= P]]),
    Children = lists:sort([[clean(M) || M <- Msgs, element(2, M) =:= C] || C <- Pids, C =/= P]),
    [io:format("child ~p~n", [C]) || C <- Children],
    ok.

%% P waits in its receive (so the patterns set next do not see runner/1's own call).
waiting(P) ->
    {status, S} = process_info(P, status),
    S =:= waiting orelse begin timer:sleep(1), waiting(P) end.

collect(Acc) -> receive M -> collect([M | Acc]) after 100 -> lists:reverse(Acc) end.

clean(T) when is_tuple(T) -> list_to_tuple([clean(E) || E <- tuple_to_list(T)]);
clean(L) when is_list(L) -> [clean(E) || E <- L];
clean(P) when is_pid(P) -> pid;
clean(F) when is_function(F) -> fn;
clean(X) -> X.
