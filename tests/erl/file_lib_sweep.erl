-module(file_lib_sweep).
-export([main/0]).
%% filelib, file:consult/script/path_* and special files against erl.
main() ->
    D = "/tmp/jbeam_filelib_sweep_" ++ os:getpid(),
    ok = filelib:ensure_dir(filename:join([D, "a", "b", "x"])),
    ok = file:write_file(filename:join([D, "a", "one.erl"]), "-module(one).\n"),
    ok = file:write_file(filename:join([D, "a", "b", "two.erl"]), ""),
    ok = file:write_file(filename:join([D, "a", "b", "three.txt"]), "x"),
    ok = file:write_file(filename:join(D, "terms"), "{a, 1}.\n[b, \"c\"].\n#{k => v}.\n"),
    ok = file:write_file(filename:join(D, "bad_terms"), "{a, 1}.\n{b,\n"),
    ok = file:write_file(filename:join(D, "script"), "X = 2, X * 21.\n"),
    Rel = fun(L) -> lists:sort([lists:nthtail(length(D) + 1, F) || F <- L]) end,
    T = [
     {wildcard_erl, fun() -> Rel(filelib:wildcard(D ++ "/**/*.erl")) end},
     {wildcard_cwd, fun() -> lists:sort(filelib:wildcard("a/*/*", D)) end},
     {wildcard_braces, fun() -> lists:sort(filelib:wildcard("a/b/{two,three}.*", D)) end},
     {wildcard_question, fun() -> lists:sort(filelib:wildcard("a/???.erl", D)) end},
     {wildcard_none, fun() -> filelib:wildcard(D ++ "/nothing*") end},
     {wildcard_bad, fun() -> filelib:wildcard(D ++ "/[a") end},
     {is_dir_file, fun() -> {filelib:is_dir(D), filelib:is_file(D), filelib:is_regular(D), filelib:is_regular(filename:join(D, "terms"))} end},
     {file_size, fun() -> {filelib:file_size(filename:join(D, "terms")), filelib:file_size(filename:join(D, "none"))} end},
     {last_modified_missing, fun() -> filelib:last_modified(filename:join(D, "none")) end},
     {fold_files, fun() -> Rel(filelib:fold_files(D, "\\.erl$", true, fun(F, A) -> [F | A] end, [])) end},
     {fold_files_flat, fun() -> Rel(filelib:fold_files(D ++ "/a", ".*", false, fun(F, A) -> [F | A] end, [])) end},
     {consult, fun() -> file:consult(filename:join(D, "terms")) end},
     {consult_bad, fun() -> file:consult(filename:join(D, "bad_terms")) end},
     {consult_missing, fun() -> file:consult(filename:join(D, "none")) end},
     {script, fun() -> file:script(filename:join(D, "script")) end},
     {script_bindings, fun() -> file:script(filename:join(D, "script"), [{'Y', 1}]) end},
     {path_consult, fun() -> {ok, T0, P} = file:path_consult([D ++ "/a", D], "terms"), {T0, lists:nthtail(length(D), P)} end},
     {path_open_missing, fun() -> file:path_open([D], "none", [read]) end},
     {list_dir_sorted, fun() -> {ok, L} = file:list_dir(D), lists:sort(L) end},
     {list_dir_file, fun() -> file:list_dir(filename:join(D, "terms")) end},
     {del_dir_r, fun() -> {file:del_dir_r(D ++ "/a"), filelib:is_dir(D ++ "/a")} end},
     {dev_null_info, fun() -> {ok, I} = file:read_file_info("/dev/null"), {element(3, I), element(2, I)} end},
     {proc_read, fun() -> {ok, B} = file:read_file("/proc/self/stat"), byte_size(B) > 0 end},
     {read_dir_as_file, fun() -> file:read_file(D) end},
     {write_to_dir, fun() -> file:write_file(D, "x") end},
     {open_dir, fun() -> file:open(D, [read]) end},
     {safe_relative, fun() -> [filelib:safe_relative_path(P, "/x") || P <- ["a/b", "../a", "a/../b", "/abs"]] end},
     {find_source, fun() -> element(1, filelib:find_source(code:which(lists))) end}
    ],
    [io:format("~p: ~p~n", [Tag, run(F)]) || {Tag, F} <- T],
    file:del_dir_r(D),
    ok.
run(F) ->
    try {ok, F()} catch C:R -> {C, strip(R)} end.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.
