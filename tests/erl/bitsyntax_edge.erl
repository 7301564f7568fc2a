-module(bitsyntax_edge).
%% Bit syntax edge cases: utf16/utf32 both endians, odd-size signed/unsigned integers, float
%% 16/32/64, bitstring comprehensions and matching with variable sizes.
-export([main/0]).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.
p(Tag, F) -> io:format("~s: ~w~n", [Tag, t(F)]).
id(X) -> X.
main() ->
    Cs = [$a, 16#E9, 16#2603, 16#1F600, 16#10FFFF, 0],
    [p("utf", fun() -> {<<C/utf8>>, <<C/utf16>>, <<C/utf16-little>>, <<C/utf32>>, <<C/utf32-little>>} end) || C <- Cs],
    [p("utf decode", fun() -> <<X/utf16-little, R/binary>> = B, {X, R} end) || B <- [<<16#3D, 16#D8, 16#00, 16#DE, 1>>, <<$a, 0>>]],
    [p("utf32 decode", fun() -> <<X/utf32-little>> = B, X end) || B <- [<<0, 16#26, 0, 0>>, <<0, 0, 16#11, 0>>]],
    [p("utf bad", F) || F <- [fun() -> <<(id(16#D800))/utf8>> end, fun() -> <<(id(16#110000))/utf16>> end,
                              fun() -> <<(id(-1))/utf32>> end, fun() -> <<_/utf8>> = id(<<16#C0, 16#80>>) end,
                              fun() -> <<_/utf16>> = id(<<16#DC, 0>>) end, fun() -> <<_/utf32>> = id(<<0, 0, 16#D8, 0>>) end]],
    [p("int", fun() -> {<<V:S>>, <<V:S/little>>, <<V:S/signed>>, <<V:S/little-signed>>} end)
     || {V, S} <- [{-1, 3}, {5, 3}, {-5, 7}, {300, 9}, {-300, 11}, {16#ABCDE, 20}, {-1, 1}, {1 bsl 70 - 1, 71}, {-(1 bsl 65), 67}, {7, 0}]],
    [p("int match", fun() -> <<A:S/signed, B:S/little, C:S/little-signed, _/bitstring>> = <<Bits/bitstring, Bits/bitstring, Bits/bitstring>>, {A, B, C} end)
     || {Bits, S} <- [{<<255, 1:1>>, 9}, {<<16#80, 0>>, 16}, {<<5:3>>, 3}, {<<16#FF, 16#FF, 16#FF, 16#FF, 16#FF, 16#FF, 16#FF, 16#FF, 16#FF>>, 72}]],
    [p("float enc", fun() -> {<<F:16/float>>, <<F:32/float>>, <<F:64/float-little>>} end) || F <- [1.5, -0.0, 65504.0, 1.0e-7, 3.0e38, 100000.0, 3]],
    [p("float enc bad", fun() -> <<(id(F)):S/float>> end) || {F, S} <- [{1.0e10, 16}, {1.0, 8}, {a, 32}]],
    [p("float dec", fun() -> <<F:S/float>> = B, F end) || {B, S} <- [{<<16#3C00:16>>, 16}, {<<16#7C00:16>>, 16}, {<<16#0001:16>>, 16}, {<<16#7F800000:32>>, 32},
                                                             {<<16#7FF8000000000000:64>>, 64}, {<<16#3F800000:32>>, 32}]],
    [p("var size", fun() -> <<N:8, Data:N/binary, Rest/bitstring>> = B, {N, Data, Rest} end) || B <- [<<3, "abcde">>, <<0, 1:1>>, <<5, "ab">>]],
    p("var size bits", fun() -> [X || <<S:4, X:S>> <= <<2:4, 3:2, 4:4, 9:4, 0:4>>] end),
    p("unit", fun() -> N = id(2), <<X:N/unit:16-binary, R/binary>> = <<"abcdefgh">>, {X, R} end),
    p("unit bits", fun() -> <<X:3/unit:3, R/bits>> = <<255, 0>>, {X, R} end),
    p("comprehension", fun() -> << <<X:5, Y:3>> || <<X:5>> <= <<1:5, 2:5, 3:5>>, Y <- [1, 2] >> end),
    p("comprehension filter", fun() -> [X || <<X:8>> <= <<"a1b2c3">>, X >= $a] end),
    p("comprehension bits tail", fun() -> [X || <<X:3>> <= <<255, 1:2>>] end),
    p("bin gen in list", fun() -> [{X, Y} || <<X, Y>> <= <<1, 2, 3, 4, 5>>] end),
    p("append", fun() -> A0 = <<1:3>>, A1 = <<A0/bits, 2:5>>, A2 = <<A1/binary, 3>>, {A1, A2, bit_size(A2)} end),
    p("sizes", fun() -> [{bit_size(B), byte_size(B)} || B <- [<<>>, <<1:1>>, <<1:7>>, <<1:9>>, <<"ab">>]] end),
    p("binary_part", fun() -> [binary_part(<<"abcdef">>, P) || P <- [{0, 2}, {6, 0}, {6, -2}, {2, 2}]] end),
    p("binary_part bad", fun() -> binary_part(<<"abc">>, {2, 5}) end),
    p("bitstring_to_list", fun() -> [bitstring_to_list(<<1, 2, 3:3>>), list_to_bitstring([1, <<2:3>>, [<<3:2>>]])] end),
    p("list_to_bitstring bad", fun() -> list_to_bitstring([<<1:1>> | <<1:1>>]) end),
    p("binary_to_list/3", fun() -> {binary_to_list(<<"abcdef">>, 2, 4), binary_to_list(<<"a">>, 1, 1)} end),
    p("binary_to_list/3 bad", fun() -> binary_to_list(<<"abc">>, 3, 2) end),
    p("neg size", fun() -> S = id(-1), <<_:S>> = <<>> end),
    p("construct neg size", fun() -> S = id(-8), <<1:S>> end),
    p("construct bad type", fun() -> <<(id(a)):8>> end),
    p("construct float int", fun() -> <<(id(1.5)):8>> end),
    p("big int field", fun() -> <<X:128>> = <<1:128>>, X end),
    p("little 128", fun() -> <<X:128/little-signed>> = <<-2:128/little>>, X end),
    p("match literal", fun() -> <<"ab", X/binary>> = <<"abcd">>, X end),
    p("match fail", fun() -> <<"ab", _/binary>> = id(<<"xbcd">>) end),
    p("integer wrap", fun() -> <<(id(256)):8, (id(-1)):4>> end),
    p("zero width", fun() -> {<<>>, <<0:0>>, <<(id(5)):0>>} end),
    ok.
