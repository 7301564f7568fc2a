-module(bs_build_order).
-export([main/0]).
%% Binary construction: which error (and error_info cause) erl reports when several segments are
%% bad, sizes past the largest binary (system_limit), and appends to shared accumulators.
t(F) ->
    try F() of V -> {ok, V}
    catch C:R:St -> {C, R, [maps:get(cause, E, none) || {_, _, _, I} <- St, {error_info, E} <- I]}
    end.
main() ->
    Args = [foo, -1, 1 bsl 62, 1 bsl 59, 7, <<1,2,3>>, <<1:3>>, 1.5, 16#110000],
    [A, S, N, M, X, B, Bits, F, BadCp] = [id(V) || V <- Args],
    Cases = [
        fun() -> <<A:8, X:S>> end,
        fun() -> <<A:8, X:N>> end,
        fun() -> <<X:8, A:N>> end,
        fun() -> <<X:S, A:8>> end,
        fun() -> <<A:8, X:M>> end,
        fun() -> <<X:M/unit:8>> end,
        fun() -> <<B:N/binary>> end,
        fun() -> <<F:N/float>> end,
        fun() -> <<F:X/float>> end,
        fun() -> <<A:8, F:X/float>> end,
        fun() -> <<F:X/float, A:8>> end,
        fun() -> <<A:8, B:S/binary>> end,
        fun() -> <<A:8, Bits/binary>> end,
        fun() -> <<Bits/binary, A:8>> end,
        fun() -> <<A:8, B:X/binary>> end,
        fun() -> <<B:X/binary, A:8>> end,
        fun() -> <<A:8, BadCp/utf8>> end,
        fun() -> <<BadCp/utf8, A:8>> end,
        fun() -> <<A/utf8, X:S>> end,
        fun() -> <<X:S, A/utf8>> end,
        fun() -> <<B/binary, A:8, X:N>> end,
        fun() -> <<A/binary, X:N>> end,
        fun() -> <<Bits/binary, X:N>> end,
        fun() -> <<B/binary, A/binary>> end,
        fun() -> <<B/binary, X:S>> end,
        fun() -> <<X:S/unit:8, A:8>> end,
        fun() -> <<B/bits, Bits/bits, X:5, B/binary, 16#1F600/utf16-little, 16#1F600/utf8, 2.5:16/float-little>> end,
        fun() -> <<X:(id(0)), B:(id(0))/binary>> end,
        fun() -> <<>> end
    ],
    [io:format("~p~n", [t(C)]) || C <- Cases],
    %% Appends to the same accumulator from two places: each result keeps its own bytes.
    Acc0 = id(<<"abc">>),
    Acc1 = <<Acc0/binary, "d">>,
    Acc2 = <<Acc1/binary, "e">>,
    Acc3 = <<Acc1/binary, "X">>,
    Acc4 = <<Acc2/binary, 1:4>>,
    Acc5 = <<Acc4/bits, 2:4>>,
    Acc6 = <<Acc4/bits, 15:12>>,
    Acc7 = <<Acc2/binary, Acc3/binary>>,
    io:format("~p~n", [[Acc0, Acc1, Acc2, Acc3, Acc4, Acc5, Acc6, Acc7]]),
    %% Growing one binary in a loop, with sub-binaries taken along the way.
    {Big, Subs} = grow(2000, <<>>, []),
    io:format("~p ~p ~p~n", [byte_size(Big), erlang:crc32(Big), [erlang:crc32(Sb) || Sb <- Subs]]),
    %% Appending to a sub-binary of a grown binary must not overwrite the bytes after it.
    <<Head:10/binary, _/binary>> = Big,
    Other = <<Head/binary, "zzzz">>,
    io:format("~p ~p~n", [Other, binary:part(Big, 10, 4)]),
    hot(),
    ok.

%% The same constructions in functions hot enough for the bytecode tier, whose fast path handles
%% literal-size integers and strings: results before and after, then its fall-backs (a bignum, a
%% non-integer, a non-binary or bit-level accumulator) once compiled.
hot() ->
    Vals = [0, 1, -1, 31, 255, 1 bsl 40, -(1 bsl 62), 16#7FFFFFFFFFFFFFFF, 12345],
    Cold = [mk(<<"ab">>, V, V, V) || V <- Vals] ++ [mk2(<<7:3>>, V) || V <- Vals],
    {L, Crc} = hot_loop(30000, <<>>, 0),
    Hot = [mk(<<"ab">>, V, V, V) || V <- Vals] ++ [mk2(<<7:3>>, V) || V <- Vals],
    io:format("hot ~p ~p ~p~n", [Cold =:= Hot, L, Crc]),
    [io:format("~p~n", [R]) || R <- Cold],
    [io:format("~p~n", [t(F)]) || F <- [fun() -> mk(<<"ab">>, 1 bsl 70, 1, 1) end,
                                        fun() -> mk(<<"ab">>, 1, 1 bsl 64, 1) end,
                                        fun() -> mk(<<"ab">>, 1, 2, 3.0) end,
                                        fun() -> mk(foo, 1, 2, 3) end,
                                        fun() -> mk3(<<1:3>>, 1) end,
                                        fun() -> mk3(<<1:8>>, x) end,
                                        fun() -> mk2(<<1:3>>, 1 bsl 80) end]],
    ok.
hot_loop(0, Acc, Crc) -> {bit_size(Acc), Crc};
hot_loop(N, Acc, Crc) ->
    B = mk(<<"x">>, N, -N, N * 7),
    Acc1 = mk2(Acc, N),
    Acc2 = case N rem 1000 of 0 -> <<>>; _ -> Acc1 end,
    hot_loop(N - 1, Acc2, erlang:crc32(Crc, B)).
mk(Acc, A, B, C) -> <<Acc/bits, A:5, B:64, "s", C:3, 0:8, (A band 16#FF):8>>.
mk2(Acc, V) -> <<Acc/bits, V:16, V:7>>.
mk3(Acc, V) -> <<Acc/binary, V:8>>.
grow(0, Acc, Subs) -> {Acc, Subs};
grow(N, Acc, Subs) ->
    Acc1 = <<Acc/binary, (N rem 256):8, N:16/little, (N * 3):5, 0:3>>,
    Subs1 = case N rem 500 of 0 -> [Acc1 | Subs]; _ -> Subs end,
    grow(N - 1, Acc1, Subs1).
id(X) -> X.
