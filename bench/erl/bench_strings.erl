-module(bench_strings).
-export([run/0]).
%% group: sequential
run() ->
    Words = [integer_to_list(I) ++ "_word" || I <- lists:seq(1, 50000)],
    Joined = string:join(Words, " "),
    Tokens = string:tokens(Joined, " "),
    length(Tokens) + length(lists:flatten(io_lib:format("~p", [lists:sublist(Words, 2000)]))).
