-module(ets_errors_ms_test).
%% ets badargs carry erts' causes (type, id, access, badkey, already_exists) for erl_stdlib_errors'
%% explanations; erlang:match_spec_test/3 and ets:test_ms/2 with table match specs.
-export([main/0]).

main() ->
    T = ets:new(t, [set, public]),
    ets:insert(T, {a, 1}),
    Priv = spawn_table(private),
    Prot = spawn_table(protected),
    _ = ets:new(named_one, [named_table]),
    Calls = [fun() -> ets:insert(no_such_table, {a}) end,
             fun() -> ets:lookup("not a table", a) end,
             fun() -> ets:lookup(Priv, a) end,
             fun() -> ets:insert(Prot, {b}) end,
             fun() -> ets:lookup_element(T, missing, 2) end,
             fun() -> ets:new(named_one, [named_table]) end,
             fun() -> ets:delete(T), ets:insert(T, {x}) end],
    [io:format("~p~n", [info(F)]) || F <- Calls],
    Tests = [{{a, 1}, [{{'$1', '$2'}, [{is_integer, '$2'}], [{element, 1, '$_'}]}]},
             {{a, b}, [{{'$1', '$2'}, [{is_integer, '$2'}], [x]}]},
             {{a, b}, [{bad}]},
             {{a, b}, [{{'$1', '$2'}, [], ['$$']}]},
             {{a, b}, [{{'$1', '$2'}, [], [{{'$2', '$1'}}]}, {'_', [], [other]}]},
             {a, [{'$1', [], ['$1']}]},
             {{a}, []},
             {{a}, x}],
    [io:format("~p ~p~n", [erlang:match_spec_test(Term, MS, table), ets:test_ms(Term, MS)]) || {Term, MS} <- Tests],
    ok.

spawn_table(Access) ->
    Self = self(),
    spawn(fun() -> Self ! {tab, ets:new(x, [Access])}, receive stop -> ok end end),
    receive {tab, Tab} -> Tab end.

%% The error_info of the failing ets call (its arguments hold table references, left out).
info(F) ->
    try F() of V -> {value, V}
    catch error:R:St ->
        [{M, Fn, _Args, Info} | _] = St,
        {R, M, Fn, proplists:get_value(error_info, Info)}
    end.
