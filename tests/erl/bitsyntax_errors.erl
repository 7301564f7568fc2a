-module(bitsyntax_errors).
-export([main/0, id/1, more/0]).
id(X) -> X.
main() ->
    io:format("~p~n", [<<(id(1.0e300)):32/float>>]),
    io:format("~p~n", [<<(id(-1.0e300)):32/float>>]),
    <<F:64/float>> = id(<<192,0,0,0,0,0,0,0>>),
    io:format("~p~n", [F]),
    <<G:64/float-little>> = id(<<0,0,0,0,0,0,0,192>>),
    io:format("~p~n", [G]),
    io:format("~p~n", [catch <<(id(<<1:3>>))/binary>>]),
    io:format("~p~n", [catch <<(id(<<1:3>>))/binary, 1>>]),
    io:format("~p~n", [<<(id(<<1:3>>))/bits, 1>>]),
    more().
more() ->
    [io:format("~p~n", [catch F()]) || F <- [
        fun() -> <<(id(a)):8>> end,
        fun() -> <<1:(id(-1))>> end,
        fun() -> <<(id(1.5)):(id(33))/float>> end,
        fun() -> <<(id(x))/utf8>> end,
        fun() -> <<(id(16#110000))/utf8>> end,
        fun() -> <<(id(<<1,2>>)):3/binary>> end,
        fun() -> <<1, (id(<<1:1>>))/binary>> end,
        fun() -> <<(id(foo))/float>> end]],
    ok.
