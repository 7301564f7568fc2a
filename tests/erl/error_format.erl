-module(error_format).
%% Exception formatting: erl_error:format_exception/3 over BIF errors with error_info
%% (erl_erts_errors / erl_stdlib_errors), erlang:error/3, and the caught class/reason.
-export([main/0]).
id(X) -> X.
show(F) ->
    try F() of V -> io:format("value ~p~n", [V])
    catch C:R:St ->
        [{M, Fn, A, _} | _] = St,
        io:format("~p:~p in ~p:~p/~p~n", [C, R, M, Fn, if is_list(A) -> length(A); true -> A end]),
        Str = erl_error:format_exception(C, R, St, #{stack_trim_fun => fun(_, _, _) -> true end}),
        io:format("~ts~n", [Str])
    end.
main() ->
    [show(F) || F <- [
        fun() -> atom_to_list(id(1)) end,
        fun() -> list_to_atom(id([a])) end,
        fun() -> binary_to_atom(id(<<255>>), utf8) end,
        fun() -> element(id(5), id({a})) end,
        fun() -> setelement(id(0), id({a}), x) end,
        fun() -> hd(id([])) end,
        fun() -> length(id([a | b])) end,
        fun() -> id(1) + id(a) end,
        fun() -> id(1) / id(0) end,
        fun() -> id(1) div id(0) end,
        fun() -> integer_to_list(id(1.0)) end,
        fun() -> list_to_integer(id("1x")) end,
        fun() -> list_to_integer(id("1"), id(37)) end,
        fun() -> binary_to_integer(id(<<"z">>)) end,
        fun() -> float_to_list(id(1.0), [bogus]) end,
        fun() -> tuple_to_list(id(a)) end,
        fun() -> maps:get(k, id(#{})) end,
        fun() -> maps:get(k, id(x)) end,
        fun() -> map_get(k, id(#{a => 1})) end,
        fun() -> maps:put(k, v, id([])) end,
        fun() -> lists:nth(id(5), [a]) end,
        fun() -> lists:seq(id(a), 3) end,
        fun() -> lists:reverse(id(a), []) end,
        fun() -> lists:keyfind(a, id(0), []) end,
        fun() -> lists:member(a, id(b)) end,
        fun() -> binary:part(id(<<"ab">>), 1, 5) end,
        fun() -> binary:split(id(<<"ab">>), id(<<>>)) end,
        fun() -> unicode:characters_to_binary(id([-1])) end,
        fun() -> string:length(id(a)) end,
        fun() -> io_lib:format(id("~w ~w"), [a]) end,
        fun() -> ets:lookup(id(no_such_table), k) end,
        fun() -> erlang:error(my_reason, [1, 2], [{error_info, #{module => ?MODULE}}]) end,
        fun() -> erlang:error({custom, [1]}) end,
        fun() -> throw(thrown_value) end,
        fun() -> exit({shutdown, why}) end,
        fun() -> erlang:raise(error, raised, [{m, f, 1, []}]) end,
        fun() -> (id(fun(X) -> X end))(1, 2) end,
        fun() -> (id(not_a_fun))(1) end,
        fun() -> case id(x) of y -> ok end end,
        fun() -> {a} = id({b}) end,
        fun() -> X = id(false), if X -> ok end end,
        fun() -> no_such_module:f() end,
        fun() -> lists:no_such_function(1) end,
        fun() -> id(<<1:3>>) =:= <<>> orelse binary_to_list(id(<<1:3>>)) end,
        fun() -> atom_to_binary(id(a), id(bad)) end,
        fun() -> erlang:send(id(no_such_name), msg) end,
        fun() -> term_to_binary(a, id([{compressed, 99}])) end,
        fun() -> binary_to_term(id(<<131, 255>>)) end,
        fun() -> abs(id(a)) end,
        fun() -> round(id("1")) end,
        fun() -> erlang:insert_element(id(5), {a}, b) end
    ]],
    io:format("~ts~n", [erl_error:format_exception(error, badarg, [])]),
    io:format("~ts~n", [erl_error:format_exception(throw, {a, b}, [{m, f, 2, [{file, "m.erl"}, {line, 3}]}])]),
    io:format("~ts~n", [erl_error:format_exception(exit, normal, [{m, f, [x, y], []}])]),
    ok.
