-module(halt_codes).
-export([main/0]).
main() ->
    io:format("before halt~n"),
    erlang:halt(3).
