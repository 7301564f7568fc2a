-module(big_maps).
-export([main/0]).
%% Maps of more than 32 keys are hashmaps in OTP: their iteration order (keys/to_list, fold,
%% iterators, ~p, term_to_binary) follows the internal hash. No atom keys: OTP hashes atoms by
%% their atom-table index.
main() ->
    Ints = maps:from_list([{I, I * I} || I <- lists:seq(1, 200)]),
    io:format("~w~n", [maps:keys(Ints)]),
    io:format("~w~n", [maps:values(Ints)]),
    io:format("~w~n", [maps:to_list(Ints)]),
    io:format("~w~n", [maps:fold(fun(K, V, A) -> [{K, V} | A] end, [], Ints)]),
    io:format("~w~n", [walk(maps:next(maps:iterator(Ints)))]),
    io:format("~p~n", [maps:from_list([{I, I} || I <- lists:seq(1, 40)])]),
    io:format("~w~n", [term_to_binary(maps:from_list([{integer_to_binary(I), I} || I <- lists:seq(1, 50)]))]),
    Mixed = maps:from_list([{I + 0.5, f} || I <- lists:seq(1, 30)] ++ [{integer_to_list(I), l} || I <- lists:seq(1, 30)]
                           ++ [{{I, <<I>>}, t} || I <- lists:seq(1, 30)] ++ [{I bsl 70, big} || I <- lists:seq(1, 30)]),
    io:format("~p~n", [Mixed]),
    %% built one put at a time, past 32 keys, then shrunk back below
    Grown = lists:foldl(fun(I, M) -> M#{<<I:16>> => I} end, #{}, lists:seq(1, 100)),
    io:format("~w~n", [maps:keys(Grown)]),
    Shrunk = maps:without([<<I:16>> || I <- lists:seq(1, 68)], Grown),
    io:format("~w ~w~n", [map_size(Shrunk), maps:keys(Shrunk)]),
    io:format("~w~n", [maps:keys(maps:remove(<<69:16>>, Shrunk))]),
    Merged = maps:merge(Ints, maps:from_list([{I, x} || I <- lists:seq(150, 260)])),
    io:format("~w~n", [maps:to_list(Merged)]),
    io:format("~w~n", [maps:keys(maps:filter(fun(K, _) -> K rem 3 =:= 0 end, Merged))]),
    io:format("~w~n", [maps:to_list(maps:map(fun(_, V) -> V end, Ints))]),
    io:format("~w~n", [[maps:get(I, Merged) || I <- lists:seq(1, 260, 13)]]),
    io:format("~w~n", [{Ints < Merged, Ints == Ints#{1 := 1.0}, Ints =:= Ints#{1 := 1.0}, erlang:phash2(Merged)}]),
    io:format("~w~n", [binary_to_term(term_to_binary(Merged)) =:= Merged]),
    io:format("~w~n", [maps:keys(binary_to_term(term_to_binary(Mixed)))]),
    ok.

walk(none) -> [];
walk({K, V, I}) -> [{K, V} | walk(maps:next(I))].
