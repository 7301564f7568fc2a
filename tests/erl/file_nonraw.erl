-module(file_nonraw).
%% Non-raw files through OTP's file_io_server processes (unmodified OTP code on top of
%% prim_file): line reads, read_ahead, delayed_write, io:format to a file, consult, copy,
%% filelib, compressed-free write_file/read_file round trips, file info.
-export([main/0]).

main() ->
    Dir = "/tmp/jbeam_file_nonraw." ++ os:getpid(),
    ok = file:make_dir(Dir),
    try run(Dir) after cleanup(Dir) end.

run(Dir) ->
    F = filename:join(Dir, "t.txt"),
    {ok, W} = file:open(F, [write, {delayed_write, 4096, 100}]),
    [io:format(W, "line ~b: ~p~n", [I, {term, I, <<"bin">>}]) || I <- lists:seq(1, 300)],
    p(file:write(W, "last line without newline")),
    p(file:close(W)),
    {ok, R} = file:open(F, [read, {read_ahead, 1024}]),
    p(read_lines(R, 0, [])),
    p(file:close(R)),
    {ok, RB} = file:open(F, [read, binary]),
    p(file:read_line(RB)),
    p(file:position(RB, {eof, -10})),
    p(file:read(RB, 100)),
    p(file:read(RB, 1)),
    p(file:close(RB)),
    T = filename:join(Dir, "terms"),
    p(file:write_file(T, <<"{a, 1}.\n[x, \"y\", <<\"z\">>].\n#{k => v}.\n">>)),
    p(file:consult(T)),
    p(file:copy(F, filename:join(Dir, "copy.txt"))),
    {ok, C1} = file:read_file(F), {ok, C2} = file:read_file(filename:join(Dir, "copy.txt")),
    p(C1 =:= C2),
    p(filelib:file_size(F)),
    p(filelib:is_regular(F)),
    p(filelib:ensure_dir(filename:join([Dir, "x", "y", "z"]))),
    p(filelib:is_dir(filename:join([Dir, "x", "y"]))),
    p(lists:sort(filelib:wildcard("*", Dir))),
    {ok, Info} = file:read_file_info(F),
    p({element(2, Info), element(3, Info), element(4, Info)}),
    {ok, U} = file:open(filename:join(Dir, "u.txt"), [write, {encoding, utf8}]),
    p(io:put_chars(U, [955, $\n, "ok", $\n])),
    p(file:close(U)),
    p(file:read_file(filename:join(Dir, "u.txt"))),
    p(file:del_dir(filename:join([Dir, "x", "y"]))),
    ok.

read_lines(D, N, Acc) ->
    case file:read_line(D) of
        {ok, L} -> read_lines(D, N + 1, [length(L) | Acc]);
        eof -> {N, lists:sum(Acc), lists:sublist(lists:reverse(Acc), 3)}
    end.

p(T) -> io:format("~p~n", [T]).

cleanup(Dir) ->
    ok = file:del_dir_r(Dir).
