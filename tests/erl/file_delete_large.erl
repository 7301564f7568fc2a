-module(file_delete_large).
%% file:delete of large files (jbeam frees them after the call returns, ADR 0061): what the
%% caller sees is unlink's outcome, as on erl.
-export([main/0]).
main() ->
    Dir = filename:join("/tmp", "jbeam_del_large_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    Big = filename:join(Dir, "big"),
    Chunk = binary:copy(<<"0123456789abcdef">>, 65536),   % 1 MiB
    write(Big, Chunk, 40),
    io:format("size ~p~n", [filelib:file_size(Big)]),
    io:format("delete ~p~n", [file:delete(Big)]),
    io:format("after ~p ~p~n", [file:read_file_info(Big), filelib:is_file(Big)]),
    io:format("again ~p~n", [file:delete(Big)]),
    %% a symlink to a large file: the link goes, the target stays
    Target = filename:join(Dir, "target"), Link = filename:join(Dir, "link"),
    write(Target, Chunk, 20),
    ok = file:make_symlink(Target, Link),
    io:format("delete link ~p~n", [file:delete(Link)]),
    io:format("link gone ~p, target ~p~n", [filelib:is_file(Link), filelib:file_size(Target)]),
    %% a large file still open for reading: readable after its name is gone
    {ok, F} = file:open(Target, [raw, binary, read]),
    io:format("delete open ~p~n", [file:delete(Target)]),
    {ok, Head} = file:pread(F, 16 * 1048576, 16),
    io:format("read after delete ~p~n", [Head]),
    ok = file:close(F),
    %% many in a row: each name is gone at once, the same name can be made again
    [begin write(Big, Chunk, 17), ok = file:delete(Big), false = filelib:is_file(Big) end || _ <- lists:seq(1, 5)],
    io:format("recreated and deleted 5 times~n"),
    %% a directory and a missing file keep their errors
    io:format("dir ~p~n", [file:delete(Dir)]),
    io:format("missing ~p~n", [file:delete(filename:join(Dir, "nope"))]),
    ok = file:del_dir(Dir),
    ok.
write(Name, Chunk, N) ->
    {ok, F} = file:open(Name, [raw, binary, write]),
    [ok = file:write(F, Chunk) || _ <- lists:seq(1, N)],
    ok = file:close(F).
