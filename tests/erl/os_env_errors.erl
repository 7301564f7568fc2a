-module(os_env_errors).
%% os:putenv/getenv/unsetenv argument checks: names with '=' or NUL, values with NUL, non-strings.
-export([main/0]).
r(F) -> try F() of V -> V catch error:R -> {error, R} end.
main() ->
    io:format("~p~n", [[r(fun() -> os:putenv(K, V) end)
                         || {K, V} <- [{"", "x"}, {"A", "b=c"}, {"A\0", "x"}, {"A", "x\0"}, {a, "x"},
                                       {"A", <<"x">>}, {"Ä", "x"}, {"A=B", "c"}, {"=", "c"}, {[$a | b], "c"}]]]),
    io:format("~p~n", [[r(fun() -> os:getenv(K) end) || K <- ["A=B", "", a, "Ä", "A", "A\0"]]]),
    io:format("~p~n", [[r(fun() -> os:unsetenv(K) end) || K <- ["A=B", "", a, "A\0"]]]),
    io:format("~p~n", [os:getenv("A")]),
    ok.
