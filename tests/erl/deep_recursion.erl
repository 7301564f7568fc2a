-module(deep_recursion).
-export([main/0]).
main() ->
    io:format("~p~n", [len(lists:seq(1, 1000000))]),
    io:format("~p~n", [length(lists:map(fun(X) -> X + 1 end, lists:seq(1, 1000000)))]),
    io:format("~p~n", [sum_body(1000000)]),
    ok.
len([]) -> 0;
len([_ | T]) -> 1 + len(T).
sum_body(0) -> 0;
sum_body(N) -> N + sum_body(N - 1).
