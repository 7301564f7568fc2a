-module(term_order).
-export([main/0]).
main() ->
    L = [<<"b">>, [a], [], {1, 2}, {1}, #{}, fun erlang:abs/1, a, 1.5, 1, 'Z', "str", {2}, [b | c], 0],
    S = lists:sort(L),
    io:format("~p~n", [[element(1, erlang:fun_info(X, type)) || X <- S, is_function(X)]]),
    io:format("~p~n", [[X || X <- S, not is_function(X)]]),
    io:format("~p~n", [lists:sort([{1, a}, {1.0, b}, {0.5, c}, {2, d}])]),
    io:format("~p~n", [[1 < a, a < {}, {} < [], [] < [1], {1, 2} > {3}, <<1>> > [1]]]),
    io:format("~p~n", [[1 == 1.0, 1 =:= 1.0, 1 /= 1.0, 1 =/= 1.0, 0.0 == -0.0]]),
    io:format("~p~n", [lists:sort([#{a => 1}, #{b => 1}, #{a => 0, b => 0}, #{}])]),
    io:format("~p~n", [max(1, 1.0)]),
    io:format("~p~n", [min([1], {1})]),
    ok.
