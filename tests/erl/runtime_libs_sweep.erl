-module(runtime_libs_sweep).
-export([main/0]).
%% Libraries that lean on less common BIFs, against erl: the compiler run inside the VM
%% (compile:forms, then loading and calling the result), persistent_term, atomics and counters,
%% erl_tar and zip in memory, base64, crypto hashes, erl_scan/erl_parse/erl_pp round trips,
%% io_lib's formatting of odd terms, and the errors each gives for bad arguments.
main() ->
    sweep_lib:report_isolated(compiler() ++ pterm() ++ atomics() ++ archives() ++ text() ++ misc()).

compiler() ->
    Src = "-module(rt_gen).\n-export([f/1, g/0]).\n"
          "f(X) when is_integer(X) -> {int, X * 2};\nf(X) -> {other, X}.\n"
          "g() -> [Y || Y <- lists:seq(1, 5), Y rem 2 =:= 1].\n",
    [{compile_forms, fun() ->
         {ok, Forms} = forms(Src),
         {ok, rt_gen, Bin} = compile:forms(Forms, [binary, return_errors]),
         {module, rt_gen} = code:load_binary(rt_gen, "rt_gen.erl", Bin),
         {rt_gen:f(21), rt_gen:f(a), rt_gen:g(), erlang:function_exported(rt_gen, f, 1)}
     end},
     {compile_error, fun() ->
         {ok, Forms} = forms("-module(bad).\nf() -> X.\n"),
         {error, [{_, [{_, erl_lint, E}]}], _} = compile:forms(Forms, [return_errors, return_warnings]),
         E
     end},
     {compile_warning, fun() ->
         {ok, Forms} = forms("-module(warn).\n-export([f/1]).\nf(X) -> Y = 1, X.\n"),
         {ok, warn, _, Ws} = compile:forms(Forms, [binary, return_warnings]),
         [W || {_, L} <- Ws, {_, erl_lint, W} <- L]
     end},
     {compile_to_asm, fun() ->
         {ok, Forms} = forms("-module(asm1).\n-export([h/0]).\nh() -> ok.\n"),
         {ok, asm1, {asm1, Exp, _, Fs, _}} = compile:forms(Forms, ['S', binary]),
         _ = file:delete("asm1.S"),   % OTP 25 also writes the listing into the cwd
         {Exp, length(Fs)}
     end},
     {beam_lib_chunks, fun() ->
         {ok, Forms} = forms(Src),
         {ok, rt_gen, Bin} = compile:forms(Forms, [binary, debug_info]),
         {ok, {rt_gen, [{exports, Ex}, {attributes, At}]}} = beam_lib:chunks(Bin, [exports, attributes]),
         {lists:sort(Ex), lists:keymember(vsn, 1, At)}
     end},
     {beam_lib_bad, fun() -> beam_lib:chunks(<<"not a beam">>, [exports]) end}].

forms(Src) ->
    {ok, Toks, _} = erl_scan:string(Src),
    {ok, split(Toks, [], [])}.

split([], [], Acc) -> lists:reverse(Acc);
split([{dot, _} = D | T], Cur, Acc) ->
    {ok, F} = erl_parse:parse_form(lists:reverse([D | Cur])),
    split(T, [], [F | Acc]);
split([Tok | T], Cur, Acc) -> split(T, [Tok | Cur], Acc).

pterm() ->
    [{pterm_put_get, fun() ->
         persistent_term:put({?MODULE, k}, #{a => [1, 2]}),
         V = persistent_term:get({?MODULE, k}),
         D = persistent_term:get({?MODULE, missing}, dflt),
         E = persistent_term:erase({?MODULE, k}),
         {V, D, E, persistent_term:erase({?MODULE, k})}
     end},
     {pterm_get_missing, fun() -> persistent_term:get({?MODULE, none}) end},
     {pterm_info, fun() -> I = persistent_term:info(), {is_integer(maps:get(count, I)), is_integer(maps:get(memory, I))} end},
     {pterm_in_list, fun() ->
         persistent_term:put({?MODULE, l}, x),
         R = lists:member({{?MODULE, l}, x}, persistent_term:get()),
         persistent_term:erase({?MODULE, l}),
         R
     end}].

atomics() ->
    [{atomics_ops, fun() ->
         A = atomics:new(3, [{signed, true}]),
         ok = atomics:put(A, 1, 10),
         R1 = atomics:add_get(A, 1, 5),
         R2 = atomics:exchange(A, 2, 7),
         R3 = atomics:compare_exchange(A, 2, 7, 8),
         R4 = atomics:compare_exchange(A, 2, 7, 9),
         ok = atomics:sub(A, 3, 1),
         {R1, R2, R3, R4, [atomics:get(A, I) || I <- [1, 2, 3]], atomics:info(A)}
     end},
     {atomics_unsigned_wrap, fun() ->
         A = atomics:new(1, [{signed, false}]),
         ok = atomics:sub(A, 1, 1),
         atomics:get(A, 1)
     end},
     {atomics_signed_overflow, fun() ->
         A = atomics:new(1, []),
         ok = atomics:put(A, 1, (1 bsl 63) - 1),
         atomics:add_get(A, 1, 1)
     end},
     {atomics_bad_index, fun() -> atomics:get(atomics:new(2, []), 3) end},
     {atomics_bad_new, fun() -> atomics:new(0, []) end},
     {atomics_put_too_big, fun() -> atomics:put(atomics:new(1, []), 1, 1 bsl 64) end},
     {counters_ops, fun() ->
         C = counters:new(2, [write_concurrency]),
         counters:add(C, 1, 3), counters:sub(C, 2, 4), counters:put(C, 1, 9),
         {counters:get(C, 1), counters:get(C, 2), counters:info(C)}
     end},
     {counters_atomic, fun() -> C = counters:new(1, [atomics]), counters:add(C, 1, -2), counters:get(C, 1) end},
     {counters_bad_incr, fun() -> counters:add(counters:new(1, []), 1, 1.5) end},
     {counters_bad_ix, fun() -> counters:get(counters:new(1, []), 0) end}].

archives() ->
    [{zip_memory, fun() ->
         {ok, {"m.zip", Z}} = zip:create("m.zip", [{"a.txt", <<"alpha">>}, {"d/b.txt", <<"beta">>}], [memory]),
         {ok, Files} = zip:unzip(Z, [memory]),
         {ok, Names} = zip:list_dir(Z),
         {lists:sort(Files), [N || {zip_file, N, _, _, _, _} <- Names]}
     end},
     {zip_bad, fun() -> zip:unzip(<<"PK not really">>, [memory]) end},
     {tar_memory, fun() ->
         F = "/tmp/runtime_libs_sweep_" ++ os:getpid() ++ ".tar",
         ok = erl_tar:create(F, [{"x.txt", <<"xx">>}, {"y/z.txt", <<"zzz">>}], [compressed]),
         {ok, L} = erl_tar:extract(F, [memory, compressed]),
         {ok, T} = erl_tar:table(F, [compressed]),
         file:delete(F),
         {lists:sort(L), lists:sort(T)}
     end},
     {zlib_roundtrip, fun() ->
         B = binary:copy(<<"repeat ">>, 1000),
         {byte_size(zlib:compress(B)), zlib:uncompress(zlib:compress(B)) =:= B,
          zlib:gunzip(zlib:gzip(B)) =:= B, zlib:unzip(zlib:zip(B)) =:= B}
     end},
     {zlib_bad, fun() -> zlib:uncompress(<<"garbage">>) end}].

text() ->
    [{base64, fun() -> {base64:encode(<<"hello world">>), base64:decode("aGVsbG8="), base64:mime_decode(<<"aGVs\nbG8=">>)} end},
     {base64_bad, fun() -> base64:decode(<<"a*b=">>) end},
     {crypto_hashes, fun() ->
         [binary:encode_hex(crypto:hash(H, <<"abc">>)) || H <- [md5, sha, sha256, sha512]]
     end},
     {crypto_hmac, fun() -> binary:encode_hex(crypto:mac(hmac, sha256, <<"key">>, <<"data">>)) end},
     {crypto_bad, fun() -> crypto:hash(no_such_hash, <<"x">>) end},
     {scan_parse_pp, fun() ->
         {ok, T, _} = erl_scan:string("f(X) -> case X of {a, B} when B > 1 -> B; _ -> <<X:8>> end."),
         {ok, F} = erl_parse:parse_form(T),
         lists:flatten(erl_pp:form(F))
     end},
     {scan_error, fun() -> erl_scan:string("\"unterminated") end},
     {parse_error, fun() -> {ok, T, _} = erl_scan:string("f( -> ."), erl_parse:parse_form(T) end},
     {eval_exprs, fun() ->
         {ok, T, _} = erl_scan:string("A = 3, B = [A * N || N <- [1,2,3]], {A, lists:sum(B), #{k => B}}."),
         {ok, Es} = erl_parse:parse_exprs(T),
         {value, V, _} = erl_eval:exprs(Es, erl_eval:new_bindings()),
         V
     end},
     {io_lib_odd, fun() ->
         lists:flatten(io_lib:format("~p|~w|~ts|~s|~.3f|~e|~g|~10.3.0b|~-6s|~c", [
             [1, 2 | 3], {<<1, 2, 3:4>>}, "λx", [<<"io">>, "list"], 1.0005, 12345.678, 0.1, 255, "ab", $z]))
     end},
     {io_lib_bad, fun() -> io_lib:format("~d", [x]) end},
     {string_funcs, fun() ->
         {string:lexemes("a,b,,c", ","), string:split("a=b=c", "=", all), string:trim("  x  "),
          string:pad("ab", 5, both, $*), string:titlecase("élan"), string:casefold("ÆB"),
          string:find("hello world", "o", trailing), string:replace("aXbXc", "X", "-", all),
          string:to_graphemes("e\x{301}a"), string:length("e\x{301}a")}
     end}].

misc() ->
    [{erl_types_sizes, fun() ->
         {erts_debug:flat_size({a, [1, 2], <<"bin">>}), erts_debug:size([x, x])}
     end},
     {binary_to_term_safe, fun() -> binary_to_term(term_to_binary(no_such_atom_zzz_q), [safe]) end},
     {binary_to_term_safe_new, fun() -> binary_to_term(<<131, 100, 0, 5, "zqzqz">>, [safe]) end},
     {term_to_iovec, fun() -> iolist_to_binary(erlang:term_to_iovec({a, <<0:800>>})) =:= term_to_binary({a, <<0:800>>}) end},
     {phash2, fun() -> [erlang:phash2(T) || T <- [a, 1, 1.0, "s", <<"b">>, {t, [l]}, #{k => v}]] end},
     {phash2_range, fun() -> erlang:phash2(abc, 7) end},
     {phash_bad, fun() -> erlang:phash2(abc, 0) end},
     {unique_integer, fun() -> A = erlang:unique_integer([positive, monotonic]), B = erlang:unique_integer([positive, monotonic]), B > A end},
     {unique_integer_bad, fun() -> erlang:unique_integer([bogus]) end},
     {system_time_units, fun() -> [is_integer(erlang:system_time(U)) || U <- [second, millisecond, microsecond, nanosecond, native, perf_counter, 1000]] end},
     {convert_time_unit, fun() -> [erlang:convert_time_unit(1500, millisecond, U) || U <- [second, microsecond, 3]] end},
     {convert_time_bad, fun() -> erlang:convert_time_unit(1, millisecond, hour) end},
     {float_to_list_opts, fun() -> [float_to_list(3.14159, O) || O <- [[{decimals, 2}], [{scientific, 3}], [short], [{decimals, 4}, compact]]] end},
     {float_to_binary_bad, fun() -> float_to_binary(1.0, [{decimals, 300}]) end},
     {integer_to_list_base, fun() -> [integer_to_list(255, B) || B <- [2, 16, 36]] end},
     {integer_to_list_bad_base, fun() -> integer_to_list(10, 37) end},
     {list_to_integer_base, fun() -> {list_to_integer("ff", 16), list_to_integer("-z", 36)} end},
     {list_to_integer_bad, fun() -> list_to_integer("12a") end},
     {bit_ops, fun() -> {bnot 5, -8 bsr 1, 1 bsl 70, (1 bsl 70) band 16#ff, -1 bxor (1 bsl 65)} end},
     {bsl_too_big, fun() -> 1 bsl (1 bsl 40) end}].
