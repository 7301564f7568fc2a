-module(ets_sweep).
-export([main/0]).
%% ETS edges against erl: bad arguments (and their error_info causes), table types, match specs,
%% select with continuations, counters, info items, ownership and heir.
main() ->
    T = [
     {new_bad_opt, fun() -> ets:new(t, [no_such_opt]) end},
     {new_named_twice, fun() -> ets:new(sweep_named, [named_table]), ets:new(sweep_named, [named_table]) end},
     {insert_bad, fun() -> E = ets:new(t, []), ets:insert(E, not_a_tuple) end},
     {insert_short_tuple, fun() -> E = ets:new(t, [{keypos, 3}]), ets:insert(E, {a, b}) end},
     {lookup_missing_table, fun() -> ets:lookup(no_such_table_xyz, k) end},
     {lookup_deleted, fun() -> E = ets:new(t, []), ets:delete(E), ets:lookup(E, k) end},
     {set_order, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{3, c}, {1, a}, {2.0, b}, {2, bb}]), ets:tab2list(E) end},
     {bag_dups, fun() -> E = ets:new(t, [bag]), ets:insert(E, [{k, 1}, {k, 1}, {k, 2}]), lists:sort(ets:lookup(E, k)) end},
     {dbag_dups, fun() -> E = ets:new(t, [duplicate_bag]), ets:insert(E, [{k, 1}, {k, 1}]), ets:lookup(E, k) end},
     {insert_new, fun() -> E = ets:new(t, []), {ets:insert_new(E, {a, 1}), ets:insert_new(E, [{b, 1}, {a, 2}]), ets:lookup(E, b)} end},
     {update_counter, fun() -> E = ets:new(t, []), ets:insert(E, {c, 5}), {ets:update_counter(E, c, 3), ets:update_counter(E, c, {2, -10, 0, 100}), ets:update_counter(E, d, 1, {d, 0})} end},
     {update_counter_bad, fun() -> E = ets:new(t, []), ets:insert(E, {c, x}), ets:update_counter(E, c, 1) end},
     {update_counter_missing, fun() -> E = ets:new(t, []), ets:update_counter(E, nope, 1) end},
     {update_element, fun() -> E = ets:new(t, []), ets:insert(E, {k, a, b}), {ets:update_element(E, k, [{2, x}, {3, y}]), ets:lookup(E, k), ets:update_element(E, nope, {2, z})} end},
     {update_element_key, fun() -> E = ets:new(t, []), ets:insert(E, {k, a}), ets:update_element(E, k, {1, z}) end},
     {match, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{1, a, x}, {2, b, x}, {3, c, y}]), {ets:match(E, {'$1', '_', x}), ets:match_object(E, {'_', '_', y})} end},
     {select_ms, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{N, N * N} || N <- lists:seq(1, 10)]), ets:select(E, [{{'$1', '$2'}, [{'>', '$2', 20}, {'<', '$1', 8}], [{{'$1', {'+', '$2', 1}}}]}]) end},
     {select_cont, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{N} || N <- lists:seq(1, 7)]), {R1, C1} = ets:select(E, [{{'$1'}, [], ['$1']}], 3), {R2, C2} = ets:select(C1), {R3, C3} = ets:select(C2), {R1, R2, R3, ets:select(C3)} end},
     {select_count, fun() -> E = ets:new(t, []), ets:insert(E, [{N} || N <- lists:seq(1, 10)]), ets:select_count(E, [{{'$1'}, [{'>', '$1', 4}], [true]}]) end},
     {select_delete, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{N} || N <- lists:seq(1, 6)]), {ets:select_delete(E, [{{'$1'}, [{'=<', '$1', 3}], [true]}]), ets:tab2list(E)} end},
     {select_replace, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{1, a}, {2, b}]), {ets:select_replace(E, [{{'$1', a}, [], [{{'$1', z}}]}]), ets:tab2list(E)} end},
     {select_bad_ms, fun() -> E = ets:new(t, []), ets:select(E, [{bad}]) end},
     {ms_fun2ms_like, fun() -> ets:test_ms({a, 1, [x]}, [{{'$1', '$2', '$3'}, [{is_list, '$3'}], [{{'$2', '$1', {length, '$3'}}}]}]) end},
     {ms_bad_guard, fun() -> ets:test_ms({a}, [{{'$1'}, [{no_such_guard, '$1'}], ['$1']}]) end},
     {first_next, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{b}, {a}, {c}]), {ets:first(E), ets:next(E, a), ets:last(E), ets:prev(E, a), ets:next(E, c)} end},
     {next_missing_key_ordered, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{1}, {3}]), ets:next(E, 2) end},
     {info, fun() -> E = ets:new(sweep_info, [ordered_set, public, {keypos, 2}]), ets:insert(E, {x, k}), [ets:info(E, I) || I <- [type, protection, keypos, size, named_table, name, compressed]] end},
     {info_bad, fun() -> E = ets:new(t, []), ets:info(E, no_such_item) end},
     {info_deleted, fun() -> E = ets:new(t, []), ets:delete(E), ets:info(E) end},
     {protected_write, fun() -> Me = self(), E = ets:new(t, [protected]), spawn(fun() -> Me ! (catch ets:insert(E, {a})) end), receive R -> element(1, R) end end},
     {private_read, fun() -> Me = self(), E = ets:new(t, [private]), spawn(fun() -> Me ! (catch ets:lookup(E, a)) end), receive R -> element(1, R) end end},
     {owner_dies, fun() -> Me = self(), spawn(fun() -> E = ets:new(t, [public]), Me ! {tab, E} end), receive {tab, E} -> timer:sleep(50), ets:info(E) end end},
     {heir, fun() -> Me = self(), P = spawn(fun() -> E = ets:new(t, [{heir, Me, gift}]), ets:insert(E, {x}), Me ! {tab, E} end), receive {tab, E} -> ok end, receive {'ETS-TRANSFER', E2, From, Data} -> {E2 =:= E, From =:= P, Data, ets:info(E, owner) =:= Me} after 1000 -> timeout end end},
     {give_away_self, fun() -> E = ets:new(t, []), ets:give_away(E, self(), x) end},
     {rename, fun() -> E = ets:new(sweep_r1, [named_table]), ets:rename(E, sweep_r2), {ets:info(sweep_r2, name), c(fun() -> ets:info(sweep_r1, name) end)} end},
     {delete_object, fun() -> E = ets:new(t, [bag]), ets:insert(E, [{k, 1}, {k, 2}]), ets:delete_object(E, {k, 1}), ets:lookup(E, k) end},
     {take, fun() -> E = ets:new(t, []), ets:insert(E, {k, v}), {ets:take(E, k), ets:take(E, k)} end},
     {lookup_element, fun() -> E = ets:new(t, []), ets:insert(E, {k, a, b}), {ets:lookup_element(E, k, 3), c(fun() -> ets:lookup_element(E, k, 4) end), c(fun() -> ets:lookup_element(E, nope, 2) end)} end},
     {member, fun() -> E = ets:new(t, []), ets:insert(E, {k}), {ets:member(E, k), ets:member(E, j)} end},
     {foldl, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{N} || N <- [3, 1, 2]]), ets:foldl(fun({N}, A) -> [N | A] end, [], E) end},
     {tab2list_big_keys, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{{a, 1}}, {[1]}, {<<"b">>}, {1.5}, {atom}]), ets:tab2list(E) end},
     {whereis_named, fun() -> ets:new(sweep_w, [named_table]), is_reference(ets:whereis(sweep_w)) end},
     {slot, fun() -> E = ets:new(t, [ordered_set]), ets:insert(E, [{a}, {b}]), {ets:slot(E, 0), ets:slot(E, 2), c(fun() -> ets:slot(E, 3) end)} end},
     {match_spec_run, fun() -> ets:match_spec_run([{a, 1}, {b, 2}], ets:match_spec_compile([{{'$1', '$2'}, [{'>', '$2', 1}], ['$1']}])) end},
     {insert_list_bad_tail, fun() -> E = ets:new(t, []), ets:insert(E, [{a} | b]) end},
     {update_counter_float, fun() -> E = ets:new(t, []), ets:insert(E, {c, 1.5}), ets:update_counter(E, c, 1) end},
     {counters_mod, fun() -> C = counters:new(2, []), counters:add(C, 1, 5), counters:sub(C, 2, 3), {counters:get(C, 1), counters:get(C, 2), c(fun() -> counters:get(C, 3) end)} end},
     {atomics_mod, fun() -> A = atomics:new(1, [{signed, false}]), atomics:put(A, 1, 5), {atomics:add_get(A, 1, 2), atomics:compare_exchange(A, 1, 7, 9), atomics:get(A, 1), c(fun() -> atomics:sub(A, 1, 100) end)} end},
     {persistent_term, fun() -> persistent_term:put({sweep, k}, v), {persistent_term:get({sweep, k}), persistent_term:get({sweep, nope}, dflt), c(fun() -> persistent_term:get({sweep, nope}) end), persistent_term:erase({sweep, k})} end}
    ],
    [io:format("~p: ~p~n", [Tag, run(F)]) || {Tag, F} <- T],
    ok.
run(F) ->
    Me = self(),
    {P, Ref} = spawn_monitor(fun() -> Me ! {self(), try {ok, F()} catch C:R -> {C, strip(R)} end} end),
    receive
        {P, Res} -> erlang:demonitor(Ref, [flush]), Res;
        {'DOWN', Ref, process, P, R} -> {died, strip(R)}
    after 5000 -> timeout
    end.
c(F) -> try F() catch C:R -> {C, strip(R)} end.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.
