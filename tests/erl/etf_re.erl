-module(etf_re).
-export([main/0]).
main() ->
    T = {a, [1, 2.5, "s"], <<"bin">>, #{k => v}, -123456789012345678901234567890},
    B = term_to_binary(T),
    io:format("~p~n", [B]),
    io:format("~p~n", [binary_to_term(B) =:= T]),
    io:format("~p~n", [byte_size(term_to_binary(lists:seq(1, 100), [compressed]))]),
    io:format("~p~n", [catch binary_to_term(<<131, 1, 2>>)]),
    io:format("~p~n", [erlang:phash2(T)]),
    io:format("~p~n", [erlang:phash2(T, 1000)]),
    io:format("~p~n", [re:run("hello world", "o w")]),
    io:format("~p~n", [re:run("abc123def", "[0-9]+", [{capture, all, list}])]),
    io:format("~p~n", [re:replace("a.b.c", "\\.", "-", [global, {return, list}])]),
    io:format("~p~n", [re:split("a1b2c3", "[0-9]", [{return, list}])]),
    {ok, MP} = re:compile("(\\w+)@(\\w+)"),
    io:format("~p~n", [re:run("user@host", MP, [{capture, all_but_first, binary}])]),
    io:format("~p~n", [re:run("nomatch", "xyz")]),
    ok.
