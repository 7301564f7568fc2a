-module(arith_bignum).
-export([main/0]).
main() ->
    Fac = fun F(0) -> 1; F(N) -> N * F(N - 1) end,
    io:format("~p~n", [Fac(30)]),
    io:format("~p~n", [Fac(100) div Fac(98)]),
    io:format("~p ~p ~p ~p~n", [7 div 2, -7 div 2, 7 rem -2, -7 rem 2]),
    io:format("~p ~p~n", [1 bsl 100, (1 bsl 100) bsr 98]),
    io:format("~p ~p ~p~n", [16#FFFF band 16#0F0F, 5 bor 10, 5 bxor 3]),
    io:format("~p~n", [bnot 12345678901234567890]),
    io:format("~p~n", [abs(-123456789012345678901234567890)]),
    io:format("~p ~p~n", [9223372036854775807 + 1, -9223372036854775808 - 1]),
    io:format("~p~n", [3037000500 * 3037000500]),
    io:format("~p~n", [catch 1 div 0]),
    io:format("~p~n", [catch 1 + a]),
    io:format("~p~n", [[integer_to_list(X, B) || {X, B} <- [{255, 16}, {-255, 2}, {123456789, 36}]]]),
    io:format("~p~n", [[list_to_integer(S, B) || {S, B} <- [{"ff", 16}, {"-1010", 2}, {"zz", 36}]]]),
    io:format("~w~n", [lists:sum(lists:seq(1, 100000))]),
    ok.
