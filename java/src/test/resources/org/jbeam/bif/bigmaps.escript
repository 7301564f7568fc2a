%% For BigMapsDiffTest: builds large maps in erl and prints, one line per case,
%%   Name<TAB>Input<TAB>Result   (Input and Result as ~w)
%% Input is {from_list, Pairs} | {ops, Ops} | {merge, PairsA, PairsB} | {cmp, PairsA, PairsB}.
%% The Java side rebuilds each map from Input with jbeam's EMap/MapsBifs and computes Result.
main(_) ->
    Shuffle = fun(L) -> [X || {_, X} <- lists:sort([{(I * 7919) rem 1009, X} || {I, X} <- lists:zip(lists:seq(1, length(L)), L)])] end,
    Ints = fun(A, B) -> [{I, I} || I <- lists:seq(A, B)] end,
    Collide = [40660,59671,22575,119693,121236,167527,169647,178740,28735,521359,366226,379275,441073,305505],
    Cases = [
        {ints33, {from_list, Ints(1, 33)}},
        {ints40_rev, {from_list, lists:reverse(Ints(1, 40))}},
        {ints100_shuffled, {from_list, Shuffle(Ints(1, 100))}},
        {ints2000, {from_list, Ints(1, 2000)}},
        {negatives, {from_list, [{-I * I, I} || I <- lists:seq(1, 300)]}},
        {small_edges, {from_list, [{(1 bsl 59) - I, I} || I <- lists:seq(1, 20)] ++ [{-(1 bsl 59) + I - 1, I} || I <- lists:seq(1, 20)]
                                 ++ [{(1 bsl 59) + I, I} || I <- lists:seq(0, 20)] ++ [{-(1 bsl 59) - I - 1, I} || I <- lists:seq(0, 20)]}},
        {bignums, {from_list, [{I * 1000000000000000000000 + I, I} || I <- lists:seq(1, 60)] ++ [{-(I bsl 130), I} || I <- lists:seq(1, 60)]}},
        {floats, {from_list, [{I / 7, I} || I <- lists:seq(1, 200)] ++ [{-I * 1.5e10, I} || I <- lists:seq(1, 50)] ++ [{0.0, zero}, {1.0e300, big}]}},
        {int_and_float, {from_list, [{I, int} || I <- lists:seq(1, 40)] ++ [{I * 1.0, float} || I <- lists:seq(1, 40)]}},
        {binaries, {from_list, [{integer_to_binary(I), I} || I <- lists:seq(1, 500)] ++ [{<<I:32>>, I} || I <- lists:seq(1, 100)]
                               ++ [{<<>>, empty}, {<<"a much longer binary key, more than twelve bytes">>, long}]}},
        {bitstrings, {from_list, [{<<I:5>>, I} || I <- lists:seq(0, 31)] ++ [{<<I:16, 1:3>>, I} || I <- lists:seq(1, 40)]}},
        {tuples, {from_list, [{{I, I * 2}, I} || I <- lists:seq(1, 200)] ++ [{{<<"k">>, [I], {}}, I} || I <- lists:seq(1, 50)] ++ [{{}, empty}]}},
        {lists, {from_list, [{"key" ++ integer_to_list(I), I} || I <- lists:seq(1, 200)] ++ [{[I, -I], I} || I <- lists:seq(1, 50)]
                            ++ [{[I | I], I} || I <- lists:seq(1, 30)] ++ [{[[I], 300 + I, "ab"], I} || I <- lists:seq(1, 30)] ++ [{[], nil}]}},
        {maps_as_keys, {from_list, [{#{I => I, I + 1 => [I]}, I} || I <- lists:seq(1, 40)]
                                   ++ [{maps:from_list(Ints(I, I + 40)), I} || I <- lists:seq(1, 40)]}},
        {collisions, {from_list, [{K, K} || K <- Collide] ++ Ints(1, 30)}},
        {mixed, {from_list, Shuffle(lists:append([
            [{I, I} || I <- lists:seq(1, 100)], [{I + 0.5, f} || I <- lists:seq(1, 50)],
            [{integer_to_binary(I), b} || I <- lists:seq(1, 50)], [{{I}, t} || I <- lists:seq(1, 50)],
            [{integer_to_list(I), l} || I <- lists:seq(1, 50)], [{I bsl 64, big} || I <- lists:seq(1, 50)]]))}},
        {duplicates, {from_list, Ints(1, 50) ++ [{I, dup} || I <- lists:seq(1, 50, 3)]}},
        {dup_to_flat, {from_list, [{1, a} || _ <- lists:seq(1, 40)] ++ Ints(2, 32)}},
        {puts_and_removes, {ops, [{put, K, K} || {K, _} <- Shuffle(Ints(1, 300))] ++ [snap]
                                 ++ [{remove, K} || {K, _} <- Shuffle(Ints(1, 267))] ++ [snap]
                                 ++ [{remove, 268}, snap, {remove, 269}, snap, {put, 1, one}, snap, {put, 2, two}, snap]
                                 ++ [{update, K, upd} || K <- lists:seq(270, 300)] ++ [snap]
                                 ++ [{remove, K} || K <- lists:seq(270, 299)] ++ [snap, {remove, 300}, {remove, 1}, {remove, 2}, snap]}},
        {puts_growing, {ops, lists:append([[{put, {<<"k">>, I}, I}, snap] || I <- lists:seq(25, 40)])}},
        {puts_binaries, {ops, [{put, integer_to_binary(I * 13), I} || I <- lists:seq(1, 1000)] ++ [snap]
                              ++ [{put, integer_to_binary(I * 13), x} || I <- lists:seq(1, 1000, 7)] ++ [snap]}},
        {merge_big_big, {merge, Ints(1, 100), [{I, b} || I <- lists:seq(50, 200)]}},
        {merge_big_small, {merge, Ints(1, 100), [{I, b} || I <- lists:seq(95, 105)]}},
        {merge_small_big, {merge, [{I, a} || I <- lists:seq(95, 105)], Ints(1, 100)}},
        {merge_small_small, {merge, Ints(1, 20), [{I, b} || I <- lists:seq(15, 40)]}},
        {merge_to_flat, {merge, Ints(1, 20), [{I, b} || I <- lists:seq(10, 32)]}},
        {cmp_keys1, {cmp, Ints(1, 33), Ints(2, 34)}},
        {cmp_keys2, {cmp, Ints(1, 32) ++ [{1000, 0}], Ints(1, 32) ++ [{33, 0}]}},
        {cmp_vals, {cmp, Ints(1, 40), lists:keystore(7, 1, Ints(1, 40), {7, 6})}},
        {cmp_vals_float, {cmp, Ints(1, 40), lists:keystore(7, 1, Ints(1, 40), {7, 7.0})}},
        {cmp_floatkey, {cmp, Ints(1, 40), lists:keystore(7, 1, Ints(1, 40), {7.0, 7})}},
        {cmp_equal, {cmp, Ints(1, 40), lists:reverse(Ints(1, 40))}}
    ],
    lists:foreach(fun({Name, Input}) ->
                          io:format("~w\t~w\t~w~n", [Name, Input, result(Input)])
                  end, Cases).

result({from_list, Pairs}) -> observe(maps:from_list(Pairs));
result({ops, Ops}) -> ops(Ops, #{}, []);
result({merge, A, B}) -> observe(maps:merge(maps:from_list(A), maps:from_list(B)));
result({cmp, A, B}) ->
    MA = maps:from_list(A), MB = maps:from_list(B),
    {MA < MB, MA == MB, MA =:= MB, MB < MA}.

ops([], _, Acc) -> lists:reverse(Acc);
ops([snap | T], M, Acc) -> ops(T, M, [{map_size(M), maps:keys(M), maps:values(M)} | Acc]);
ops([{put, K, V} | T], M, Acc) -> ops(T, M#{K => V}, Acc);
ops([{update, K, V} | T], M, Acc) -> ops(T, M#{K := V}, Acc);
ops([{remove, K} | T], M, Acc) -> ops(T, maps:remove(K, M), Acc).

%% What jbeam must reproduce for a map: the orders of keys/values/to_list, of fold and of the
%% iterator, the external format, phash2, and lookups.
observe(M) ->
    Fold = maps:fold(fun(K, _, A) -> [K | A] end, [], M),
    Iter = iter(maps:next(maps:iterator(M))),
    {map_size(M), maps:keys(M), maps:values(M), maps:to_list(M), lists:reverse(Fold), Iter,
     term_to_binary(M), erlang:phash2(M),
     [maps:get(K, M) || K <- maps:keys(M)] =:= maps:values(M)}.

iter(none) -> [];
iter({K, _, I}) -> [K | iter(maps:next(I))].
