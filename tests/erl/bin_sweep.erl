-module(bin_sweep).
-export([main/0]).
%% Bit syntax and binary BIF edges against erl: construction failures and their error_info,
%% matching of odd sizes, utf8/16/32, floats, bignum segments, binary comprehensions.
main() ->
    T = [
     {build_bad_int, fun() -> X = id(a), <<X:8>> end},
     {build_bad_size, fun() -> S = id(-1), <<1:S>> end},
     {build_bad_float, fun() -> X = id(a), <<X/float>> end},
     {build_float16, fun() -> <<1.5:16/float>> end},
     {build_float_size_bad, fun() -> S = id(24), <<1.5:S/float>> end},
     {build_binary_unit, fun() -> B = id(<<1:3>>), <<B/binary>> end},
     {build_utf8_bad, fun() -> C = id(16#110000), <<C/utf8>> end},
     {build_utf16_surrogate, fun() -> C = id(16#D800), <<C/utf16>> end},
     {build_utf32, fun() -> <<955/utf32-little>> end},
     {build_big, fun() -> <<(1 bsl 70):80>> end},
     {build_neg_big, fun() -> <<(-(1 bsl 70)):72/signed>> end},
     {build_size_big, fun() -> S = id(1 bsl 60), <<0:S>> end},
     {build_append, fun() -> B0 = id(<<1>>), B1 = <<B0/binary, 2, 3:4>>, <<B1/bitstring, 5:4>> end},
     {match_utf8, fun() -> <<C/utf8, R/binary>> = id(<<"λx"/utf8>>), {C, R} end},
     {match_utf8_bad, fun() -> case id(<<255, 1>>) of <<C/utf8, _/binary>> -> C; _ -> nomatch end end},
     {match_float_nan, fun() -> case id(<<16#7FF8000000000000:64>>) of <<F/float>> -> F; _ -> nomatch end end},
     {match_float_inf, fun() -> case id(<<16#7FF0000000000000:64>>) of <<F/float>> -> F; _ -> nomatch end end},
     {match_float16, fun() -> <<F:16/float>> = id(<<16#3E00:16>>), F end},
     {match_signed, fun() -> <<A:4/signed, B:4, C:16/little-signed>> = id(<<16#F7, 16#FF, 16#FE>>), {A, B, C} end},
     {match_size_var, fun() -> <<N, Rest:N/binary, T/binary>> = id(<<2, "abcd">>), {N, Rest, T} end},
     {match_unit, fun() -> <<X:3/unit:8, _/binary>> = id(<<1, 2, 3, 4>>), X end},
     {match_bits_tail, fun() -> <<_:3, R/bits>> = id(<<255>>), R end},
     {match_fail, fun() -> <<X:16>> = id(<<1>>), X end},
     {comprehension, fun() -> << <<(X * 2)>> || <<X>> <= <<1, 2, 3>>, X > 1 >> end},
     {comprehension_bits, fun() -> [X || <<X:3>> <= <<255, 0>>] end},
     {comprehension_list_gen, fun() -> << <<X:4>> || X <- [1, 2, 3] >> end},
     {bin_bifs, fun() -> {byte_size(<<1:9>>), bit_size(<<1:9>>), binary_part(<<"hello">>, {1, 3}), binary_part(<<"hello">>, 5, -2)} end},
     {bin_to_list_bits, fun() -> bitstring_to_list(<<1, 2, 3:2>>) end},
     {list_to_bitstring, fun() -> list_to_bitstring([<<1:1>>, 2, [<<3:7>>]]) end},
     {list_to_bitstring_bad, fun() -> list_to_bitstring([<<1:1>>, 256]) end},
     {iolist_bits_bad, fun() -> iolist_to_binary([<<1:1>>]) end},
     {binary_copy, fun() -> binary:copy(<<"ab">>, 3) end},
     {binary_first_last, fun() -> {binary:first(<<"ab">>), binary:last(<<"ab">>), catch binary:first(<<>>)} end},
     {binary_bin_to_list, fun() -> binary:bin_to_list(<<"abc">>, {1, 2}) end},
     {binary_encode_unsigned, fun() -> {binary:encode_unsigned(256), binary:encode_unsigned(256, little), binary:encode_unsigned(0)} end},
     {binary_referenced, fun() -> is_integer(binary:referenced_byte_size(binary:part(<<"hello world">>, 0, 2))) end},
     {split_binary, fun() -> split_binary(<<1, 2, 3>>, 1) end},
     {term_to_binary_compressed, fun() -> B = term_to_binary(lists:seq(1, 100), [compressed]), {byte_size(B) < 300, binary_to_term(B) =:= lists:seq(1, 100)} end},
     {term_to_binary_deterministic, fun() -> term_to_binary(#{b => 1, a => 2}, [deterministic]) end},
     {binary_to_term_safe, fun() -> binary_to_term(<<131, 100, 0, 12, "surely_nope1">>, [safe]) end},
     {binary_to_term_used, fun() -> binary_to_term(<<131, 97, 1, 99, 99>>, [used]) end},
     {term_to_iovec, fun() -> iolist_to_binary(erlang:term_to_iovec({a, <<1, 2, 3>>})) =:= term_to_binary({a, <<1, 2, 3>>}) end},
     {base64_mime, fun() -> base64:mime_decode("aGVs\nbG8=") end},
     {crc32_combine, fun() -> erlang:crc32_combine(erlang:crc32(<<"ab">>), erlang:crc32(<<"cd">>), 2) =:= erlang:crc32(<<"abcd">>) end}
    ],
    [io:format("~p: ~p~n", [Tag, run(F)]) || {Tag, F} <- T],
    ok.
id(X) -> X.
run(F) ->
    try {ok, F()} catch C:R:St -> {C, strip(R), info(St)} end.
info([{_, _, _, L} | _]) -> proplists:get_value(error_info, L);
info(_) -> none.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.
