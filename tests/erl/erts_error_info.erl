-module(erts_error_info).
%% Which module explains a BIF's badarg (error_info in the first stack frame): erts' own BIF
%% modules (erlang, atomics, counters, persistent_term) use erl_erts_errors, as in erl.
-export([main/0]).

main() ->
    Calls = [fun() -> persistent_term:get({no, such, key}) end,
             fun() -> counters:get(not_a_ref, 1) end,
             fun() -> atomics:new(0, []) end,
             fun() -> atomics:get(not_a_ref, 1) end,
             fun() -> erlang:atom_to_list(1) end,
             fun() -> lists:reverse(x, y) end,
             fun() -> binary:part(<<>>, 5, 5) end],
    [io:format("~p~n", [first_frame(F)]) || F <- Calls],
    ok.

first_frame(F) ->
    try F() of V -> {value, V}
    catch C:R:St -> {C, R, hd(St)}
    end.
