-module(ets_race_sweep).
-export([main/0]).
%% ETS under concurrent writers on both schedulers, printed as invariants: counters updated from
%% many processes add up, insert_new has one winner per key, take hands each object to one taker,
%% a fixed table's traversal sees every key that stayed, delete_object/select_delete races leave
%% nothing, and the table types (set, ordered_set, bag, duplicate_bag) with read/write concurrency.
main() ->
    Types = [set, ordered_set, bag, duplicate_bag],
    Opts = [[], [{write_concurrency, true}], [{read_concurrency, true}, {write_concurrency, true}]],
    [io:format("~p ~p: ~p~n", [T, O, sweep(T, O)]) || T <- Types, O <- Opts],
    io:format("update_counter: ~p~n", [counters()]),
    io:format("insert_new: ~p~n", [insert_new()]),
    io:format("take: ~p~n", [take()]),
    io:format("fixed_traversal: ~p~n", [fixed_traversal()]),
    io:format("select_delete: ~p~n", [select_delete()]),
    ok.

par(N, F) ->
    Me = self(),
    Go = make_ref(),
    Ps = [spawn_link(fun() -> receive Go -> ok end, Me ! {self(), F(I)} end) || I <- lists:seq(1, N)],
    [P ! Go || P <- Ps],
    [receive {P, R} -> R end || P <- Ps].

%% 4 writers insert 500 keys each (each its own range), then delete their odd ones.
sweep(Type, Opts) ->
    T = ets:new(t, [Type, public | Opts]),
    par(4, fun(W) ->
        [ets:insert(T, {K, W}) || K <- lists:seq(W * 500, W * 500 + 499)],
        [ets:delete_object(T, {K, W}) || K <- lists:seq(W * 500, W * 500 + 499), K rem 2 =:= 1],
        ok
    end),
    Objs = ets:tab2list(T),
    Keys = lists:usort([K || {K, _} <- Objs]),
    Expect = lists:usort([K || W <- lists:seq(1, 4), K <- lists:seq(W * 500, W * 500 + 499), K rem 2 =:= 0]),
    Size = ets:info(T, size),
    R = {Keys =:= Expect, Size =:= length(Objs),
         case Type of
             set -> length(Objs) =:= length(Keys);
             ordered_set -> length(Objs) =:= length(Keys) andalso [K || {K, _} <- Objs] =:= Keys;
             _ -> lists:all(fun({K, W}) -> K >= W * 500 andalso K =< W * 500 + 499 end, Objs)
         end},
    ets:delete(T),
    R.

counters() ->
    T = ets:new(c, [set, public, {write_concurrency, true}]),
    ets:insert(T, [{a, 0}, {b, 0, 0}]),
    par(8, fun(_) -> [begin ets:update_counter(T, a, 1), ets:update_counter(T, b, [{2, 1}, {3, 2}]) end || _ <- lists:seq(1, 2000)], ok end),
    par(4, fun(I) -> [ets:update_counter(T, {new, J}, {2, I}, {{new, J}, 0}) || J <- lists:seq(1, 100)], ok end),
    R = {ets:lookup(T, a), ets:lookup(T, b), lists:usort([V || {{new, _}, V} <- ets:tab2list(T)])},
    ets:delete(T),
    R.

insert_new() ->
    T = ets:new(n, [set, public]),
    Wins = par(8, fun(I) -> length([K || K <- lists:seq(1, 1000), ets:insert_new(T, {K, I})]) end),
    R = {lists:sum(Wins), ets:info(T, size)},
    ets:delete(T),
    R.

take() ->
    T = ets:new(k, [set, public, {write_concurrency, true}]),
    ets:insert(T, [{K, K} || K <- lists:seq(1, 4000)]),
    Got = par(6, fun(_) -> [K || K <- lists:seq(1, 4000), [{_, _}] <- [ets:take(T, K)]] end),
    All = lists:append(Got),
    R = {length(All), length(lists:usort(All)), ets:info(T, size)},
    ets:delete(T),
    R.

%% safe_fixtable + first/next while others delete and insert: every key never deleted is seen once.
fixed_traversal() ->
    T = ets:new(f, [set, public]),
    ets:insert(T, [{K, keep} || K <- lists:seq(1, 3000)] ++ [{-K, tmp} || K <- lists:seq(1, 3000)]),
    Me = self(),
    ets:safe_fixtable(T, true),
    W = spawn_link(fun() ->
        [begin ets:delete(T, -K), ets:insert(T, {10000 + K, new}) end || K <- lists:seq(1, 3000)],
        Me ! writer_done
    end),
    Seen = walk(T, ets:first(T), []),
    receive writer_done -> ok end,
    ets:safe_fixtable(T, false),
    _ = W,
    Kept = [K || K <- Seen, K > 0, K =< 3000],
    R = {lists:sort(Kept) =:= lists:seq(1, 3000), length(Seen) =:= length(lists:usort(Seen))},
    ets:delete(T),
    R.

walk(_, '$end_of_table', Acc) -> Acc;
walk(T, K, Acc) -> walk(T, ets:next(T, K), [K | Acc]).

select_delete() ->
    T = ets:new(s, [bag, public, {write_concurrency, true}]),
    par(4, fun(I) -> [ets:insert(T, {K rem 50, I, K}) || K <- lists:seq(1, 2000)], ok end),
    Dels = par(4, fun(I) -> ets:select_delete(T, [{{'_', I, '_'}, [], [true]}]) end),
    R = {Dels, ets:info(T, size)},
    ets:delete(T),
    R.
