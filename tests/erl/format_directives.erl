-module(format_directives).
-export([main/0]).
main() ->
    io:format("~w ~p~n", [{a, "str", <<"bin">>}, {a, "str", <<"bin">>}]),
    io:format("[~10s] [~-10s] [~.3s]~n", ["right", "left", "truncate"]),
    io:format("~5.2f|~10.3e|~-8w|~8w~n", [3.14159, 1234.5, abc, abc]),
    io:format("~c~c~c~n", [$a, $b, $c]),
    io:format("~b ~.16b ~.8B ~x ~.16X~n", [10, 255, 8, 255, "0x", 255, "#"]),
    io:format("~+ ~#~n", [255, 255]) =:= ok orelse ok,
    io:format("~i~p~n", [ignored, shown]),
    io:format("~~ ~n"),
    io:format("~p~n", [lists:seq(1, 30)]),
    io:format("~p~n", [[{key, "a long string value number " ++ integer_to_list(N)} || N <- lists:seq(1, 4)]]),
    io:format("~P~n", [[1, [2, [3, [4, [5]]]]], 4]),
    io:format("~s~n", [io_lib:format("~p", [#{a => 1, b => [1, 2]}])]),
    io:format("~p~n", [io_lib:format("~w-~w", [1, 2])]),
    Bin = list_to_binary(io_lib:format("~p", [{x, 1.5}])),
    io:format("~s~n", [Bin]),
    io:format("~tp~n", [[1024, 1025]]),
    io:format("~p~n", ["mixed\nnewline\ttab"]),
    io:put_chars("put_chars works\n"),
    io:fwrite("fwrite ~p~n", [ok]),
    ok.
