-module(ets_error_causes).
%% The error_info causes ets's update/ownership BIFs give (erl_stdlib_errors explains them in
%% the shell), checked in erts' order; and erlang:display's atom quoting (reserved words bare).
-export([main/0]).

t(F) ->
    try F() of V -> {ok, V}
    catch C:R:S -> [{_, _, _, I} | _] = S, {C, R, proplists:get_value(error_info, I)}
    end.

main() ->
    %% first: erl writes display output at once, io:format output later when stdout is a file
    erlang:display(['fun', 'or', 'end', 'after', 'A', 'a b', [], '[]', true, 'hello@x', ab_C,
                    '', 'receive', 'Hello', '_x', 'a.b', {'catch', 'when'}, #{'of' => 'begin'}]),
    T = ets:new(t, [set, public]),
    ets:insert(T, {a, 1, x}),
    O = ets:new(o, [ordered_set, public]),
    ets:insert(O, {a, 1, x}),
    B = ets:new(b, [bag, public]),
    Cases =
        [fun() -> ets:update_counter(T, b, 1) end,
         fun() -> ets:update_counter(T, a, {3, 1}) end,
         fun() -> ets:update_counter(T, a, {1, 1}) end,
         fun() -> ets:update_counter(T, a, {9, 1}) end,
         fun() -> ets:update_counter(T, a, {0, 1}) end,
         fun() -> ets:update_counter(T, a, foo) end,
         fun() -> ets:update_counter(T, a, {2, foo}) end,
         fun() -> ets:update_counter(O, b, 1) end,
         fun() -> ets:update_counter(O, a, {1, 1}) end,
         fun() -> ets:update_counter(O, a, {9, 1}) end,
         fun() -> ets:update_counter(T, a, [{2, 1}, {1, 1}]) end,
         fun() -> ets:update_counter(T, a, [{2, 1}, {9, 1}]) end,
         fun() -> ets:update_counter(T, a, [{3, 1}, {9, 1}]) end,
         fun() -> ets:update_counter(T, a, [{9, 1}, {3, 1}]) end,
         fun() -> ets:update_counter(T, a, [{1, 1}, {9, 1}]) end,
         fun() -> ets:update_counter(T, a, [{2, 1} | x]) end,
         fun() -> ets:update_counter(T, a, []) end,
         fun() -> ets:update_counter(T, a, [{2, 1}, {2, 10}]) end,
         fun() -> ets:update_counter(T, a, {2, 1, 0, 0}) end,
         fun() -> ets:update_counter(T, a, {2, 5, 3, -1}) end,
         fun() -> ets:update_counter(T, a, {2, 1, foo, 0}) end,
         fun() -> ets:update_counter(T, b, {9, 1}, {b, 0}) end,
         fun() -> ets:update_counter(T, b, {1, 1}, {b, 0}) end,
         fun() -> ets:update_counter(T, b, {2, 1}, {b}) end,
         fun() -> ets:update_counter(T, b, {2, 1}, foo) end,
         fun() -> ets:update_counter(T, b, {2, 1}, {b, x}) end,
         fun() -> ets:update_counter(T, b, {0, 1}) end,
         fun() -> ets:update_counter(T, b, {-1, 1}) end,
         fun() -> ets:update_counter(T, b, [{2, 1} | x]) end,
         fun() -> ets:update_counter(T, c, {2, 7}, {z, 1}) end,
         fun() -> ets:lookup(T, c) end,
         fun() -> ets:update_counter(B, a, 1) end,
         fun() -> ets:update_element(B, a, {2, 1}) end,
         fun() -> ets:update_element(T, a, {1, 1}) end,
         fun() -> ets:update_element(T, a, {9, 1}) end,
         fun() -> ets:update_element(T, a, {0, 1}) end,
         fun() -> ets:update_element(T, a, [{2, 1}, {1, 1}]) end,
         fun() -> ets:update_element(T, a, [{2, 1} | x]) end,
         fun() -> ets:update_element(T, a, []) end,
         fun() -> ets:update_element(T, b, {1, 1}) end,
         fun() -> ets:update_element(T, b, foo) end,
         fun() -> ets:update_element(T, a, [{2, 5}, {3, y}]) end,
         fun() -> ets:lookup(T, a) end,
         fun() -> ets:lookup_element(T, b, 2) end,
         fun() -> ets:lookup_element(T, a, 9) end],
    [io:format("~p~n", [t(F)]) || F <- Cases],
    give_away(),
    ok.

give_away() ->
    T = ets:new(g, [set, public]),
    Self = self(),
    Other = spawn(fun() -> receive stop -> ok end end),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    spawn(fun() -> Self ! {r, t(fun() -> ets:give_away(T, Other, x) end)} end),
    receive {r, X} -> io:format("~p~n", [X]) end,
    [io:format("~p~n", [t(F)]) || F <- [fun() -> ets:give_away(T, Dead, x) end,
                                       fun() -> ets:give_away(T, foo, x) end,
                                       fun() -> ets:give_away(T, Self, x) end,
                                       fun() -> ets:give_away(T, Other, x) end]],
    receive {'ETS-TRANSFER', _, _, _} -> io:format("unexpected transfer~n") after 0 -> ok end,
    Other ! stop.
