-module(bench_file_write).
-export([run/0, size_mb/0, tmp_dir/0]).
%% group: io
%% Raw file write: BENCH_FILE_MB MiB (default 256; the issue's figure is 1024) in 64 KiB chunks
%% through file:open([raw, binary, write]) + file:write/2 + file:close/1, into a file under /tmp
%% that is deleted afterwards. Files go to BENCH_TMPDIR (bench/run makes one per invocation and
%% removes it at the end), else /tmp.
run() ->
    F = filename:join(tmp_dir(), "jbeam_bench_file_w." ++ os:getpid()),
    Chunk = binary:copy(<<"0123456789abcdef">>, 4096),
    {ok, D} = file:open(F, [raw, binary, write]),
    write(D, Chunk, size_mb() * 16),
    ok = file:close(D),
    ok = file:delete(F).
write(_, _, 0) -> ok;
write(D, C, N) -> ok = file:write(D, C), write(D, C, N - 1).
size_mb() ->
    case os:getenv("BENCH_FILE_MB") of
        false -> 256;
        S -> list_to_integer(S)
    end.
tmp_dir() ->
    case os:getenv("BENCH_TMPDIR") of
        false -> "/tmp";
        D -> D
    end.
