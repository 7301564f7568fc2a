-module(ets_fixed_delete).
%% Deleting while a hash table is fixed (safe_fixtable, ets:foldl): erts keeps deleted keys as
%% pseudo-deleted entries so next/2 from them still works (ssh's channel cache relies on it).
-export([main/0]).
main() ->
    [t(Type) || Type <- [set, bag, duplicate_bag, ordered_set]],
    ok.
t(Type) ->
    T = ets:new(t, [Type, {keypos, 2}]),
    [ets:insert(T, {x, K, K * 10}) || K <- lists:seq(1, 40)],
    %% foldl deleting the current key (safe_fixtable inside foldl)
    S = ets:foldl(fun({x, K, _}, Acc) -> ets:delete(T, K), Acc + K end, 0, T),
    io:format("~p foldl-delete ~p left ~p~n", [Type, S, ets:info(T, size)]),
    [ets:insert(T, {x, K, K}) || K <- lists:seq(1, 20)],
    %% fixed: next on deleted key
    ets:safe_fixtable(T, true),
    F = ets:first(T),
    ets:delete(T, F),
    R1 = (catch ets:next(T, F)),
    io:format("~p fixed next-after-delete ~p~n", [Type, is_integer(R1) orelse R1 =:= '$end_of_table']),
    io:format("~p fixed prev ~p~n", [Type, catch element(1, {ets:prev(T, F)})]),
    ets:safe_fixtable(T, false),
    %% unfixed next on deleted key
    F2 = ets:first(T),
    ets:delete(T, F2),
    R2 = (catch ets:next(T, F2)),
    io:format("~p unfixed next-after-delete ~p~n", [Type, case R2 of {'EXIT', {E, _}} -> E; _ -> is_integer(R2) end]),
    io:format("~p next missing ~p~n", [Type, case catch ets:next(T, 1000) of {'EXIT', {E2, _}} -> E2; V -> V end]),
    %% foldr deleting
    S2 = ets:foldr(fun({x, K, _}, Acc) -> ets:delete(T, K), Acc + 1 end, 0, T),
    io:format("~p foldr-delete ~p~n", [Type, S2]),
    %% delete_object during fixed traversal, then re-insert of same key
    [ets:insert(T, {x, K, K}) || K <- lists:seq(1, 10)],
    ets:safe_fixtable(T, true),
    K1 = ets:first(T),
    ets:delete_object(T, {x, K1, K1}),
    ets:insert(T, {x, K1, new}),
    W = walk(T, ets:first(T), []),
    io:format("~p walk ~p~n", [Type, length(W)]),
    io:format("~p fixed info ~p~n", [Type, ets:info(T, fixed)]),
    ets:safe_fixtable(T, false),
    %% delete_all_objects while fixed, then next from an old key
    ets:safe_fixtable(T, true),
    K2 = ets:first(T),
    ets:delete_all_objects(T),
    io:format("~p after delete_all ~p ~p~n", [Type, catch ets:next(T, K2), ets:info(T, size)]),
    ets:insert(T, {x, K2, again}),
    io:format("~p reinsert ~p~n", [Type, ets:next(T, K2)]),
    ets:safe_fixtable(T, false),
    io:format("~p unfixed ~p ~p~n", [Type, ets:first(T), catch ets:next(T, K2)]),
    %% a fixing process that dies releases the fix
    Self = self(),
    Pid = spawn(fun() -> ets:safe_fixtable(T, true), Self ! fixed, receive stop -> ok end end),
    receive fixed -> ok end,
    ets:delete(T, K2),
    io:format("~p other-fixed next ~p~n", [Type, ets:next(T, K2)]),
    Ref = monitor(process, Pid), Pid ! stop, receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("~p released ~p ~p~n", [Type, ets:info(T, fixed), case catch ets:next(T, K2) of {'EXIT', {E3, _}} -> E3; V3 -> V3 end]),
    ets:delete(T).
walk(_, '$end_of_table', Acc) -> Acc;
walk(T, K, Acc) -> walk(T, ets:next(T, K), [K | Acc]).
