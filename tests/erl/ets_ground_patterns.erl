-module(ets_ground_patterns).
-export([main/0]).
%% Match patterns and specs with no variables at all (the whole head one constant): match_object,
%% match, select, select_count, select_delete on every table type; dets_server finds a table's
%% owner with such a pattern ({Pid, Tab}), so dets:close/1 answered not_owner without it.
main() ->
    P = self(),
    [begin
         S = ets:new(s, [Ty]),
         ets:insert(S, [{P, t}, {1, t}, {1, u}, {{a, P}, t}, {"k", [x]}]),
         io:format("~p ~p ~p ~p ~p~n", [Ty, clean(ets:match_object(S, {P, t})), lists:sort(ets:match_object(S, {1, t})),
                                        ets:match(S, {{a, P}, t}), ets:match_object(S, {"k", [x]})]),
         io:format("  ~p ~p ~p ~p~n", [lists:sort(ets:select(S, [{{1, t}, [], [ok]}, {{1, u}, [], [u]}])), ets:select_count(S, [{{1, t}, [], [true]}]),
                                       ets:match_object(S, {2, t}), ets:match_object(S, atom)]),
         io:format("  ~p ~p~n", [ets:select_delete(S, [{{P, t}, [], [true]}]), clean(lists:sort(ets:tab2list(S)))]),
         ets:delete(S)
     end || Ty <- [set, bag, duplicate_bag, ordered_set]],
    F = filename:join("/tmp", "ets_ground_" ++ os:getpid()),
    {ok, T} = dets:open_file(t, [{file, F}, {type, set}]),
    ok = dets:insert(T, [{K, K * K} || K <- lists:seq(1, 100)]),
    io:format("~p ~p~n", [dets:lookup(T, 10), dets:close(T)]),
    {ok, T} = dets:open_file(t, [{file, F}]),
    io:format("~p ~p ~p~n", [dets:info(T, size), lists:sum([V || {_, V} <- dets:match_object(T, '_')]), dets:close(T)]),
    ok = file:delete(F).

%% self() printed as the atom self (pids differ between runs).
clean(T) when is_pid(T) -> self;
clean(T) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T)));
clean([H | T]) -> [clean(H) | clean(T)];
clean(T) -> T.
