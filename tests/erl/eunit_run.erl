-module(eunit_run).
%% eunit from the installed OTP: passing, failing, generated, setup, error and exit tests, its text report.
-export([main/0]).
-include_lib("eunit/include/eunit.hrl").
add_test() -> ?assertEqual(4, 2 + 2).
fail_test() -> ?assertEqual(5, 2 + 2).
gen_test_() -> [?_assert(X > 0) || X <- [1, 2, 3]].
setup_test_() -> {setup, fun() -> ets:new(t, [named_table, public]) end, fun(_) -> ets:delete(t) end,
                  fun(_) -> [?_assertEqual(true, ets:insert(t, {a, 1})), ?_assertMatch([{a, _}], ets:lookup(t, a))] end}.
raise_test() -> ?assertError(badarith, 1 / zero()).
exit_test() -> ?assertExit(boom, exit(boom)).
timeout_test_() -> {timeout, 1, fun() -> ok end}.
zero() -> 0.
main() ->
    R = eunit:test(?MODULE, []),
    io:format("~p~n", [R]),
    R2 = eunit:test([fun() -> ok end, {"named", fun() -> ?assert(false) end}]),
    io:format("~p~n", [R2]).
