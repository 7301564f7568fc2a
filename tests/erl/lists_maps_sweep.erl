-module(lists_maps_sweep).
-export([main/0]).
%% lists and maps edges against erl: sorting of equal-comparing numbers, stability, usort's
%% choice among equals, key functions on odd tuples, large-map iteration and printing order,
%% map comprehension-like folds, and bad-argument errors.
main() ->
    %% Integer and binary keys only: a large map's order over atom keys follows the atom table
    %% index of each atom, which differs between the VMs (jbeam's known gap).
    Big = maps:from_list([{K, K * 2} || K <- lists:seq(1, 40)] ++ [{integer_to_binary(K), K} || K <- lists:seq(1, 20)]),
    T = [
     {sort_mixed_numbers, fun() -> lists:sort([2, 1.0, 1, 2.0, 0.5]) end},
     {usort_equal_numbers, fun() -> {lists:usort([1, 1.0, 2.0, 2]), lists:usort([1.0, 1])} end},
     {umerge, fun() -> lists:umerge([1, 2.0, 3], [1.0, 2, 4]) end},
     {sort_fun_stable, fun() -> lists:sort(fun({A, _}, {B, _}) -> A =< B end, [{1, a}, {0, b}, {1, c}, {0, d}]) end},
     {keysort_stable, fun() -> lists:keysort(1, [{b, 1}, {a, 2}, {b, 0}, {a, 1}]) end},
     {ukeysort, fun() -> lists:ukeysort(1, [{b, 1}, {a, 2}, {b, 0}, {a, 1}]) end},
     {keyfind_short_tuples, fun() -> lists:keyfind(x, 3, [{x}, {a, b, x}, 7]) end},
     {keyreplace, fun() -> lists:keyreplace(a, 1, [{b, 1}, {a, 2}, {a, 3}], {a, 9}) end},
     {keytake, fun() -> lists:keytake(a, 1, [{b, 1}, {a, 2}]) end},
     {keystore_new, fun() -> lists:keystore(c, 1, [{a, 1}], {c, 3}) end},
     {flatten_deep, fun() -> lists:flatten([1, [2, [3, [4, []]]], [[[5]]]], [tail]) end},
     {flatmap, fun() -> lists:flatmap(fun(X) -> [X, X] end, [1, 2]) end},
     {foldr_order, fun() -> lists:foldr(fun(X, A) -> [X | A] end, [], [1, 2, 3]) end},
     {mapfoldl, fun() -> lists:mapfoldl(fun(X, S) -> {X * 2, S + X} end, 0, [1, 2, 3]) end},
     {partition, fun() -> lists:partition(fun(X) -> X rem 2 == 0 end, [1, 2, 3, 4]) end},
     {split_bad, fun() -> lists:split(5, [1, 2]) end},
     {droplast_empty, fun() -> lists:droplast([]) end},
     {last_empty, fun() -> lists:last([]) end},
     {max_empty, fun() -> lists:max([]) end},
     {sum_bad, fun() -> lists:sum([1, a]) end},
     {duplicate_neg, fun() -> lists:duplicate(-1, x) end},
     {join, fun() -> {lists:join(",", ["a", "b"]), lists:join(x, [])} end},
     {search, fun() -> {lists:search(fun(X) -> X > 1 end, [1, 2, 3]), lists:search(fun(_) -> false end, [1])} end},
     {zipwith3, fun() -> lists:zipwith3(fun(A, B, C) -> A + B + C end, [1, 2], [3, 4], [5, 6]) end},
     {subtract_order, fun() -> [1, 2, 1, 3, 1] -- [1, 3] end},
     {append_improper, fun() -> [1, 2] ++ improper end},
     {reverse_improper, fun() -> lists:reverse([1 | 2]) end},
     {member_improper, fun() -> lists:member(x, [a | b]) end},
     {big_map_keys, fun() -> maps:keys(Big) end},
     {big_map_print, fun() -> lists:flatten(io_lib:format("~w", [maps:with([1, 2, 3, <<"1">>, <<"2">>, <<"20">>], Big)])) end},
     {big_map_fold_order, fun() -> maps:fold(fun(K, _, A) -> [K | A] end, [], Big) end},
     {big_map_to_list, fun() -> lists:sublist(maps:to_list(Big), 10) end},
     {map_iterator_order, fun() -> I = maps:iterator(Big), {K1, _, I2} = maps:next(I), {K2, _, _} = maps:next(I2), {K1, K2} end},
     {map_equal_float_key, fun() -> M = #{1 => a, 1.0 => b}, {maps:size(M), maps:get(1, M), maps:get(1.0, M), M} end},
     {map_merge_with, fun() -> maps:merge_with(fun(_, A, B) -> A + B end, #{a => 1, b => 2}, #{b => 3}) end},
     {map_intersect, fun() -> maps:intersect_with(fun(_, A, B) -> {A, B} end, #{a => 1, b => 2}, #{b => 3, c => 4}) end},
     {map_update_with_default, fun() -> maps:update_with(z, fun(V) -> V + 1 end, 0, #{}) end},
     {map_update_with_missing, fun() -> maps:update_with(z, fun(V) -> V + 1 end, #{}) end},
     {map_filter_bad, fun() -> maps:filter(not_fun, #{}) end},
     {map_from_keys, fun() -> maps:from_keys([a, b], 0) end},
     {map_with_bad, fun() -> maps:with(not_list, #{}) end},
     {map_pattern_match, fun() -> #{a := X, b := Y} = #{a => 1, b => 2, c => 3}, {X, Y} end},
     {map_update_syntax_bad, fun() -> M = id(#{}), M#{a := 1} end},
     {map_in_guard, fun() -> M = id(#{a => 1}), if is_map_key(a, M), map_get(a, M) == 1 -> yes; true -> no end end},
     {term_order_maps, fun() -> lists:sort([#{b => 1}, #{a => 2}, #{a => 1, b => 1}, #{1 => x}, #{1.0 => x}]) end}
    ],
    sweep_lib:report(T),
    ok.
id(X) -> X.
