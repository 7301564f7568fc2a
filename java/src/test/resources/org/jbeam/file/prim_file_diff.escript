#!/usr/bin/env escript
%% Differential driver for PrimFileDiffTest: runs the operations of OpsFile (one term each,
%% file:consult format) through OTP's prim_file inside Dir and prints one ~w result per line,
%% with times and inode numbers masked (they differ between runs).
-mode(compile).
-include_lib("kernel/include/file.hrl").

main([OpsFile, Dir]) ->
    {ok, Ops} = file:consult(OpsFile),
    ok = prim_file:set_cwd(Dir),
    {ok, Base} = prim_file:get_cwd(),
    lists:foldl(fun(Op, Fds) ->
                        {R, Fds1} = try run(Op, Fds, Base) catch C:E -> {{crash, C, E}, Fds} end,
                        io:format("~w~n", [R]),
                        Fds1
                end, #{}, Ops),
    ok.

run({open, S, N, M}, Fds, _) ->
    case prim_file:open(N, M) of
        {ok, Fd} -> {{ok, fd}, Fds#{S => Fd}};
        E -> {E, Fds}
    end;
run(Op, Fds, Base) -> {op(Op, Fds, Base), Fds}.

op({close, S}, F, _) -> prim_file:close(maps:get(S, F));
op({read, S, N}, F, _) -> prim_file:read(maps:get(S, F), N);
op({write, S, D}, F, _) -> prim_file:write(maps:get(S, F), D);
op({pread, S, O, N}, F, _) -> prim_file:pread(maps:get(S, F), O, N);
op({pwrite, S, O, D}, F, _) -> prim_file:pwrite(maps:get(S, F), O, D);
op({position, S, L}, F, _) -> prim_file:position(maps:get(S, F), L);
op({truncate, S}, F, _) -> prim_file:truncate(maps:get(S, F));
op({sync, S}, F, _) -> prim_file:sync(maps:get(S, F));
op({datasync, S}, F, _) -> prim_file:datasync(maps:get(S, F));
op({allocate, S, O, L}, F, _) -> prim_file:allocate(maps:get(S, F), O, L);
op({advise, S, O, L, A}, F, _) -> prim_file:advise(maps:get(S, F), O, L, A);
op({ipread, S, O, M}, F, _) -> prim_file:ipread_s32bu_p32bu(maps:get(S, F), O, M);
op({read_handle_info, S}, F, _) -> mask(prim_file:read_handle_info(maps:get(S, F), [{time, posix}]));
op({read_file_info, N}, _, _) -> mask(prim_file:read_file_info(N, [{time, posix}]));
op({read_file_info_t, N}, _, _) -> mask_t(prim_file:read_file_info(N, [{time, posix}]));
op({read_link_info, N}, _, _) -> mask(prim_file:read_link_info(N, [{time, posix}]));
op({read_file, N}, _, _) -> prim_file:read_file(N);
op({list_dir, N}, _, _) ->
    case prim_file:list_dir(N) of {ok, L} -> {ok, lists:sort(L)}; E -> E end;
op({make_dir, N}, _, _) -> prim_file:make_dir(N);
op({del_dir, N}, _, _) -> prim_file:del_dir(N);
op({delete, N}, _, _) -> prim_file:delete(N);
op({rename, A, B}, _, _) -> prim_file:rename(A, B);
op({read_link, N}, _, _) -> prim_file:read_link(N);
op({make_symlink, A, B}, _, _) -> prim_file:make_symlink(A, B);
op({make_link, A, B}, _, _) -> prim_file:make_link(A, B);
op({write_file_info, N, Mode, At, Mt}, _, _) ->
    prim_file:write_file_info(N, #file_info{mode = Mode, atime = At, mtime = Mt}, [{time, posix}]);
op({get_cwd}, _, Base) ->
    {ok, C} = prim_file:get_cwd(),
    {ok, string:prefix(C, Base)};
op({set_cwd, N}, _, _) -> prim_file:set_cwd(N);
op({name2native, X}, _, _) -> catch_error(fun() -> prim_file:internal_name2native(X) end);
op({native2name, X}, _, _) -> catch_error(fun() -> prim_file:internal_native2name(X) end);
op({is_translatable, X}, _, _) -> catch_error(fun() -> prim_file:is_translatable(X) end);
op({normalize_utf8, X}, _, _) -> catch_error(fun() -> prim_file:internal_normalize_utf8(X) end);
op({buf_new, S}, _, _) -> put(S, prim_buffer:new()), ok;
op({buf, S, F, Args}, _, _) -> catch_error(fun() -> apply(prim_buffer, F, [get(S) | Args]) end).

catch_error(F) -> try F() catch error:R -> {'EXIT', R} end.

mask({ok, #file_info{} = I}) -> {ok, I#file_info{atime = 0, mtime = 0, ctime = 0, inode = 0}};
mask(E) -> E.
mask_t({ok, #file_info{} = I}) -> {ok, I#file_info{ctime = 0, inode = 0}};
mask_t(E) -> E.
