-module(unicode_sweep).
-export([main/0]).
%% unicode conversions against erl: error and incomplete tuples, encodings, BOMs, normalization,
%% and the bad-argument cases (their error_info too).
main() ->
    T = [
     {to_bin_error, fun() -> unicode:characters_to_binary([$a, 16#D800, $b]) end},
     {to_bin_incomplete, fun() -> unicode:characters_to_binary(<<"a", 16#CE>>) end},
     {to_bin_invalid_utf8, fun() -> unicode:characters_to_binary(<<"a", 255, "b">>) end},
     {to_list_incomplete, fun() -> unicode:characters_to_list(<<"ab", 16#E2, 16#82>>) end},
     {to_list_mixed, fun() -> unicode:characters_to_list(["a", <<"λ"/utf8>>, [$b | <<"c">>]]) end},
     {latin1_in, fun() -> unicode:characters_to_binary(<<200, 201>>, latin1, utf8) end},
     {latin1_out_bad, fun() -> unicode:characters_to_binary([955], unicode, latin1) end},
     {latin1_out_ok, fun() -> unicode:characters_to_binary([200], unicode, latin1) end},
     {utf16_out, fun() -> unicode:characters_to_binary("aλ", unicode, utf16) end},
     {utf16_little, fun() -> unicode:characters_to_binary("aλ", unicode, {utf16, little}) end},
     {utf32_in, fun() -> unicode:characters_to_list(<<0, 0, 3, 187>>, utf32) end},
     {utf16_in_incomplete, fun() -> unicode:characters_to_list(<<0, 97, 0>>, utf16) end},
     {bad_encoding, fun() -> unicode:characters_to_binary("a", unicode, ebcdic) end},
     {bad_data, fun() -> unicode:characters_to_binary([a]) end},
     {bad_data_list, fun() -> unicode:characters_to_list({x}) end},
     {negative_char, fun() -> unicode:characters_to_list([-1]) end},
     {bom, fun() -> {unicode:bom_to_encoding(<<239, 187, 191, "x">>), unicode:bom_to_encoding(<<255, 254, 0, 0>>), unicode:bom_to_encoding(<<"x">>), unicode:encoding_to_bom(utf16)} end},
     {nfc, fun() -> unicode:characters_to_nfc_list([$a, 16#30A]) end},
     {nfkc, fun() -> unicode:characters_to_nfkc_binary("ﬁ") end},
     {nfd_binary, fun() -> unicode:characters_to_nfd_binary(<<"é"/utf8>>) end},
     {nfc_bad, fun() -> unicode:characters_to_nfc_list([16#D800]) end},
     {string_len, fun() -> {string:length("e\x{301}"), length("e\x{301}"), string:length(<<"🇸🇪"/utf8>>)} end},
     {string_reverse, fun() -> string:reverse("ab\x{301}c") end},
     {string_next_grapheme, fun() -> string:next_grapheme("e\x{301}x") end},
     {string_uppercase, fun() -> {string:uppercase("straße"), string:lowercase("ΣΑΣ")} end},
     {string_equal, fun() -> {string:equal("Å", "å", true), string:equal("a", <<"a">>)} end},
     {string_split_all, fun() -> string:split("a-b-c", "-", all) end},
     {string_replace, fun() -> string:replace("aXbXc", "X", "--", trailing) end},
     {string_take, fun() -> string:take("  abc", " ") end},
     {string_trim_unicode, fun() -> string:trim("\x{a0} x \x{3000}") end},
     {string_to_graphemes, fun() -> string:to_graphemes("ae\x{301}") end},
     {string_jaro, fun() -> string:jaro_similarity("martha", "marhta") end},
     {io_chars_width, fun() -> lists:flatten(io_lib:format("~-6ts|", [[955, 956]])) end},
     {utf8_bin_match, fun() -> [C || <<C/utf8>> <= <<"aλ€😀"/utf8>>] end},
     {list_to_binary_unicode_bad, fun() -> list_to_binary([955]) end},
     {atom_unicode, fun() -> {atom_to_binary('λ'), atom_to_list('λ'), binary_to_atom(<<"λ"/utf8>>), catch atom_to_binary('λ', latin1)} end},
     {atom_too_long, fun() -> list_to_atom(lists:duplicate(256, $a)) end},
     {atom_255_unicode, fun() -> length(atom_to_list(list_to_atom(lists:duplicate(255, 955)))) end}
    ],
    [io:format("~p: ~p~n", [Tag, run(F)]) || {Tag, F} <- T],
    ok.
run(F) ->
    try {ok, F()} catch C:R:St -> {C, strip(R), info(St)} end.
info([{_, _, _, L} | _]) -> proplists:get_value(error_info, L);
info(_) -> none.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.
