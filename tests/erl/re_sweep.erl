-module(re_sweep).
-export([main/0]).
%% re (PCRE) edges against erl: options, captures by name and index, unicode, global matches with
%% empty matches, split and replace options, compile errors, and bad arguments.
main() ->
    T = [
     {named, fun() -> re:run("2026-12-03", "(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)", [{capture, [d, m, y], list}]) end},
     {named_all_names, fun() -> re:run("ab", "(?<x>a)(?<w>b)", [{capture, all_names, binary}]) end},
     {inspect, fun() -> {ok, MP} = re:compile("(?<x>a)(?<w>b)"), re:inspect(MP, namelist) end},
     {capture_index, fun() -> re:run("xabcx", "a(b)c", [{capture, all, index}]) end},
     {capture_none, fun() -> re:run("abc", "b", [{capture, none}]) end},
     {capture_first, fun() -> re:run("abc", "(b)(c)", [{capture, first, list}]) end},
     {capture_all_but_first, fun() -> re:run("abc", "(b)(c)", [{capture, all_but_first, binary}]) end},
     {unset_group, fun() -> re:run("ac", "a(b)?c", [{capture, all, list}]) end},
     {unset_group_index, fun() -> re:run("ac", "a(b)?c", [{capture, all, index}]) end},
     {global, fun() -> re:run("a1b22c333", "\\d+", [global, {capture, all, list}]) end},
     {global_empty, fun() -> re:run("abc", "x*", [global, {capture, all, index}]) end},
     {offset, fun() -> re:run("aaa", "a", [{offset, 2}, {capture, all, index}]) end},
     {caseless, fun() -> re:run("ABC", "b", [caseless, {capture, all, list}]) end},
     {multiline, fun() -> re:run("a\nb", "^b$", [multiline, {capture, all, list}]) end},
     {dotall, fun() -> re:run("a\nb", "a.b", [dotall, {capture, all, list}]) end},
     {extended, fun() -> re:run("ab", "a  # comment\n b", [extended, {capture, all, list}]) end},
     {anchored, fun() -> re:run("ba", "a", [anchored]) end},
     {ungreedy, fun() -> re:run("aaa", "a+", [ungreedy, {capture, all, list}]) end},
     {unicode_class, fun() -> re:run("λx", "\\w+", [unicode, ucp, {capture, all, list}]) end},
     {unicode_binary, fun() -> re:run(<<"åäö"/utf8>>, "ä", [unicode, {capture, all, index}]) end},
     {unicode_bad_input, fun() -> re:run(<<255>>, <<"a">>, [unicode]) end},
     {newline_crlf, fun() -> re:run("a\r\nb", "a$", [multiline, {newline, crlf}]) end},
     {bsr_unicode, fun() -> re:run("a\x{2028}b", "\\R", [unicode, bsr_unicode, {capture, all, index}]) end},
     {match_limit, fun() -> re:run("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "(a+)+$", [{match_limit, 100}, report_errors]) end},
     {report_errors_compile, fun() -> re:run("a", "(", [report_errors]) end},
     {compile_error, fun() -> re:compile("a{2,1}") end},
     {compile_error2, fun() -> re:compile("[z-a]") end},
     {compile_bad_opt, fun() -> re:compile("a", [no_such_opt]) end},
     {run_bad_opt, fun() -> re:run("a", "a", [no_such_opt]) end},
     {run_bad_subject, fun() -> re:run(a, "a") end},
     {run_bad_regex, fun() -> re:run("a", "(") end},
     {replace_groups, fun() -> re:replace("john smith", "(\\w+) (\\w+)", "\\2, \\1", [{return, list}]) end},
     {replace_named_g, fun() -> re:replace("ab", "(?<x>a)", "[\\g{x}]", [{return, binary}]) end},
     {replace_amp, fun() -> re:replace("abc", "b", "<&>", [{return, list}]) end},
     {replace_escape_amp, fun() -> re:replace("abc", "b", "\\&", [{return, list}]) end},
     {replace_fun, fun() -> re:replace("a1b2", "\\d", fun(M, _) -> [M, M] end, [global, {return, list}]) end},
     {replace_global_empty, fun() -> re:replace("abc", "", "-", [global, {return, list}]) end},
     {split_group, fun() -> re:split("a1b2c", "(\\d)", [{return, list}]) end},
     {split_parts, fun() -> re:split("a,b,c,d", ",", [{parts, 2}, {return, list}]) end},
     {split_trim, fun() -> re:split("a,b,,,", ",", [trim, {return, list}]) end},
     {split_empty_pattern, fun() -> re:split("abc", "", [{return, list}]) end},
     {split_group_unset, fun() -> re:split("ab", "(x)?b", [{return, list}, group]) end},
     {version, fun() -> is_binary(re:version()) end},
     {lookbehind, fun() -> re:run("price: $42", "(?<=\\$)\\d+", [{capture, all, list}]) end},
     {backref, fun() -> re:run("abab", "(ab)\\1", [{capture, all, list}]) end},
     {possessive, fun() -> re:run("aaa", "a++a") end},
     {utf8_codepoint_escape, fun() -> re:run("λ", "\\x{3bb}", [unicode, {capture, all, list}]) end},
     {compile_unicode_list, fun() -> {ok, MP} = re:compile([955], [unicode]), re:run([955], MP, [{capture, all, list}]) end},
     {mp_reuse_wrong_mode, fun() -> {ok, MP} = re:compile("a", [unicode]), re:run(<<"a">>, MP) end}
    ],
    [io:format("~p: ~p~n", [Tag, run(F)]) || {Tag, F} <- T],
    ok.
run(F) ->
    try {ok, F()} catch C:R:St -> {C, strip(R), info(St)} end.
info([{_, _, _, L} | _]) -> proplists:get_value(error_info, L);
info(_) -> none.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.
