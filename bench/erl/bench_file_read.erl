-module(bench_file_read).
-export([run/0]).
%% group: io
%% Raw file read: BENCH_FILE_MB MiB (default 256) in 64 KiB chunks through
%% file:open([raw, binary, read]) + file:read/2. The file is created by the first (warm-up) call
%% in bench_file_write:tmp_dir(), so the timed calls read from the page cache; bench/run deletes it
%% at the end. Each VM writes and reads its own copy (same size and content, both written by the
%% same kind of call just before, so both are in the page cache the same way).
run() ->
    MB = bench_file_write:size_mb(),
    F = filename:join(bench_file_write:tmp_dir(), "jbeam_bench_file_r." ++ os:getpid()),
    case filelib:file_size(F) of
        Size when Size =:= MB * 1048576 -> ok;
        _ -> create(F, MB * 16)
    end,
    {ok, D} = file:open(F, [raw, binary, read]),
    N = read(D, 0),
    ok = file:close(D),
    N = MB * 1048576,
    ok.
create(F, Chunks) ->
    C = binary:copy(<<"0123456789abcdef">>, 4096),
    {ok, D} = file:open(F, [raw, binary, write]),
    [ok = file:write(D, C) || _ <- lists:seq(1, Chunks)],
    ok = file:close(D).
read(D, N) ->
    case file:read(D, 65536) of
        {ok, B} -> read(D, N + byte_size(B));
        eof -> N
    end.
