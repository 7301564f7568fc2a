-module(file_raw_io).
%% Raw files through OTP's file/prim_file (the data path runs on jbeam's completion ring):
%% read/write/pread/pwrite, positions, append, sync, large multi-chunk reads and writes, read_file.
-export([main/0]).

main() ->
    Dir = "/tmp/jbeam_file_raw_io." ++ os:getpid(),
    ok = file:make_dir(Dir),
    try run(Dir) after cleanup(Dir) end.

run(Dir) ->
    F = filename:join(Dir, "a.bin"),
    {ok, W} = file:open(F, [raw, binary, write]),
    p(file:write(W, <<"hello ">>)),
    p(file:write(W, [<<"wor">>, "ld", [$!, <<"\n">>]])),
    p(file:write(W, <<>>)),
    p(file:position(W, cur)),
    p(file:pwrite(W, 0, <<"H">>)),
    p(file:pwrite(W, [{20, <<"x">>}, {6, <<"W">>}])),
    p(file:sync(W)),
    p(file:datasync(W)),
    p(file:read(W, 1)),
    p(file:close(W)),
    p(file:read_file(F)),
    {ok, R} = file:open(F, [raw, binary, read]),
    p(file:read(R, 5)),
    p(file:read(R, 0)),
    p(file:read(R, 100)),
    p(file:read(R, 100)),
    p(file:pread(R, 6, 5)),
    p(file:pread(R, 100, 5)),
    p(file:pread(R, [{0, 2}, {3, 2}, {200, 1}])),
    p(file:position(R, {bof, 2})),
    p(file:read(R, 3)),
    p(file:position(R, {eof, -2})),
    p(file:read(R, 10)),
    p(file:write(R, <<"no">>)),
    p(file:close(R)),
    %% list mode (no binary)
    {ok, L} = file:open(F, [raw, read]),
    p(file:read(L, 5)),
    p(file:close(L)),
    %% append
    {ok, A} = file:open(F, [raw, binary, append]),
    p(file:write(A, <<"tail">>)),
    p(file:pwrite(A, 0, <<"Z">>)),
    p(file:close(A)),
    p(file:read_file(F)),
    %% read+write, truncate
    {ok, RW} = file:open(F, [raw, binary, read, write]),
    p(file:read(RW, 4)),
    p(file:write(RW, <<"XY">>)),
    p(file:position(RW, {cur, 0})),
    p(file:truncate(RW)),
    p(file:position(RW, bof)),
    p(file:read(RW, 100)),
    p(file:close(RW)),
    %% big: 3 MiB + 17 bytes written in pieces of varied sizes, read back in one call and in chunks
    Big = filename:join(Dir, "big.bin"),
    Data = iolist_to_binary([<<I:32>> || I <- lists:seq(1, (3 * 1048576 + 16) div 4)] ++ [<<"x">>]),
    {ok, BW} = file:open(Big, [raw, binary, write]),
    p(file:write(BW, [binary:part(Data, 0, 1000), binary:part(Data, 1000, byte_size(Data) - 1000)])),
    p(file:close(BW)),
    {ok, BR} = file:open(Big, [raw, binary, read]),
    {ok, All} = file:read(BR, 10 * 1048576),
    p({byte_size(All), All =:= Data}),
    p(file:read(BR, 1)),
    p(file:position(BR, bof)),
    p(chunks(BR, 65536, 0)),
    {ok, Mid} = file:pread(BR, 1048570, 2 * 1048576),
    p(Mid =:= binary:part(Data, 1048570, 2 * 1048576)),
    p(file:close(BR)),
    {ok, Whole} = file:read_file(Big),
    p(Whole =:= Data),
    p(file:write_file(Big, <<"small">>)),
    p(file:read_file(Big)),
    p(file:write_file(Big, <<"more">>, [append])),
    p(file:read_file(Big)),
    p(file:read_file(Dir)),
    p(file:read_file(filename:join(Dir, "missing"))),
    ok.

chunks(D, N, Acc) ->
    case file:read(D, N) of
        {ok, B} -> chunks(D, N, Acc + byte_size(B));
        Other -> {Acc, Other}
    end.

p(T) -> io:format("~p~n", [T]).

cleanup(Dir) ->
    {ok, Fs} = file:list_dir(Dir),
    [file:delete(filename:join(Dir, N)) || N <- Fs],
    file:del_dir(Dir).
