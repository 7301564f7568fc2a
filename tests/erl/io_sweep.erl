-module(io_sweep).
-export([main/0]).
%% io and io_lib edges against erl: bad format arguments (what io:format raises and prints),
%% widths and precisions, unicode output, io:get_line at end of input, io:columns without a
%% terminal, printing of special terms.
main() ->
    T = [
     {fmt_badarg, fun() -> io:format("~p ~p~n", [a]) end},
     {fmt_not_list, fun() -> io:format("~p~n", a) end},
     {fmt_bad_control, fun() -> io:format("~q~n", [a]) end},
     {fmt_atom_format, fun() -> io:format(hello_atom), io:nl() end},
     {fmt_binary_format, fun() -> io:format(<<"bin ~w~n">>, [1]) end},
     {fmt_s_bad, fun() -> io:format("~s~n", [{a}]) end},
     {fmt_ts_unicode, fun() -> io:format("~ts|~s~n", [[955, 956], "abc"]) end},
     {fmt_s_unicode_bin, fun() -> io:format("~ts~n", [<<"åäö"/utf8>>]) end},
     {fmt_c_unicode, fun() -> io:format("~tc~n", [955]) end},
     {fmt_width_overflow, fun() -> io:format("~3w|~-3w|~3.1f~n", [12345, a, 1.0e10]) end},
     {fmt_e_precision, fun() -> io:format("~.1e ~.10e ~.0f~n", [123.456, 1.0, 2.5]) end},
     {fmt_g, fun() -> io:format("~g ~g ~g~n", [0.0001, 1.0e20, 123.0]) end},
     {fmt_B_neg, fun() -> io:format("~.2B ~.36B ~.16X~n", [-5, 12345, -255, "0x"]) end},
     {fmt_p_width, fun() -> io:format("~20p~n", [[aaaa, bbbb, cccc, dddd, eeee, ffff]]) end},
     {fmt_p_depth, fun() -> io:format("~P~n", [{a, {b, {c, {d, {e}}}}}, 3]) end},
     {fmt_tp_binary, fun() -> io:format("~tp ~p~n", [<<"åä"/utf8>>, <<"åä"/utf8>>]) end},
     {fmt_p_string_list, fun() -> io:format("~p ~p ~p~n", [[65, 66], [1, 2], [955]]) end},
     {fmt_tp_string, fun() -> io:format("~tp~n", [[955, 956]]) end},
     {fmt_w_float, fun() -> io:format("~w ~w ~w ~w~n", [0.1, 1.0e-10, 123456789012345.0, -0.0]) end},
     {fmt_p_fun, fun() -> S = lists:flatten(io_lib:format("~p", [fun lists:map/2])), io:format("~s~n", [S]) end},
     {fmt_p_map_nested, fun() -> io:format("~p~n", [#{a => #{b => [1, 2, #{c => d}]}, "k" => <<1, 2>>}]) end},
     {fmt_p_record_like, fun() -> io:format("~p~n", [{person, "Alice", 30, [{email, "a@b"}]}]) end},
     {fmt_p_long, fun() -> io:format("~p~n", [lists:seq(1, 40)]) end},
     {fmt_p_improper, fun() -> io:format("~p ~w~n", [[a | b], [1, 2 | 3]]) end},
     {fmt_p_bitstring, fun() -> io:format("~p ~w~n", [<<1, 2:3>>, <<255, 7:4>>]) end},
     {fmt_p_atoms, fun() -> io:format("~p ~p ~p ~p~n", ['hello world', 'Caps', '', 'ok']) end},
     {fmt_p_big, fun() -> io:format("~p ~w~n", [1 bsl 100, -(1 bsl 70)]) end},
     {put_chars_bad, fun() -> io:put_chars([a]) end},
     {put_chars_unicode, fun() -> io:put_chars(unicode:characters_to_binary([955, $\n])) end},
     {put_chars_latin1_bin, fun() -> io:put_chars(<<"plain\n">>) end},
     {write, fun() -> io:write({a, "b", <<"c">>}), io:nl() end},
     {columns, fun() -> io:columns() end},
     {rows, fun() -> io:rows() end},
     {get_line_eof, fun() -> io:get_line("prompt> ") end},
     {read_eof, fun() -> io:read("x> ") end},
     {get_chars_eof, fun() -> io:get_chars("", 3) end},
     {getopts, fun() -> lists:sort([K || {K, _} <- io:getopts()]) end},
     {setopts_bad, fun() -> io:setopts([{no_such_io_opt, 1}]) end},
     {format_to_dead_device, fun() -> P = spawn(fun() -> ok end), timer:sleep(10), io:format(P, "x~n", []) end},
     {format_to_atom_device, fun() -> io:format(no_such_device_q, "x~n", []) end},
     {fwrite_standard_error, fun() -> io:fwrite(standard_error, "", []) end},
     {io_lib_format_bad, fun() -> io_lib:format("~w ~w", [a]) end},
     {io_lib_build_text, fun() -> lists:flatten(io_lib:build_text(io_lib:scan_format("~w and ~s", [x, "y"]))) end},
     {io_lib_unscan, fun() -> io_lib:unscan_format(io_lib:scan_format("~5.2f|", [1.5])) end},
     {io_lib_write_char, fun() -> {io_lib:write_char($a), io_lib:write_char($\n), io_lib:write_latin1_char(200)} end},
     {io_lib_quote_atom, fun() -> {io_lib:quote_atom(hello, hello), io_lib:quote_atom('a b', 'a b')} end},
     {io_lib_deep_char_list, fun() -> {io_lib:deep_char_list([[$a], "b"]), io_lib:deep_char_list([a])} end},
     {io_lib_fread_bad, fun() -> io_lib:fread("~d", "abc") end},
     {io_lib_fread_more, fun() -> io_lib:fread("~d~d", "12") end}
    ],
    [begin io:format("~p: ", [Tag]), io:format("~p~n", [run(F)]) end || {Tag, F} <- T],
    ok.
run(F) ->
    try {ok, F()} catch C:R -> {C, strip(R)} end.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.
