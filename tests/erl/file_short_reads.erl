-module(file_short_reads).
%% Raw reads whose result is shorter than the size asked for (ADR 0044: result arrays are
%% allocated without zeroing, and a short read's unwritten rest is cleared before the binary
%% escapes). Each case reads a file of a size around the request's half and end, then prints
%% sizes, a hash of the bytes, and what appending to, matching on and splitting the binary gives:
%% any stale byte from an uninitialised array would change one of them. Also read_file around
%% 64 KiB boundaries, pread past the end, and many reads of one descriptor interleaved with writes.
-export([main/0]).

main() ->
    Dir = "/tmp/jbeam_file_short_reads." ++ os:getpid(),
    ok = file:make_dir(Dir),
    try
        short_reads(Dir),
        read_files(Dir),
        interleaved(Dir)
    after
        file:del_dir_r(Dir)
    end.

data(N) -> list_to_binary([(I * 7 + 3) rem 256 || I <- lists:seq(1, N)]).

short_reads(Dir) ->
    F = filename:join(Dir, "s"),
    lists:foreach(
      fun({Size, Ask}) ->
              ok = file:write_file(F, data(Size)),
              {ok, D} = file:open(F, [raw, binary, read]),
              R = file:read(D, Ask),
              P = file:pread(D, 0, Ask),
              Eof = file:read(D, Ask),
              ok = file:close(D),
              io:format("~p of ~p: ~s ~s ~p~n", [Size, Ask, show(R), show(P), Eof])
      end,
      [{1, 65536}, {100, 65536}, {32767, 65536}, {32768, 65536}, {32769, 65536},
       {40000, 65536}, {65535, 65536}, {65536, 65536}, {65537, 65536}, {1000, 1001},
       {300000, 1000000}, {70000, 140000}, {70001, 140000}]).

show({ok, B}) ->
    Appended = <<B/binary, "tail">>,
    Split = case B of <<H:10/binary, _/binary>> -> erlang:phash2(H); _ -> short end,
    Last = binary:last(B),
    io_lib:format("{ok, ~p bytes, hash ~p, appended ~p ~p, head ~p, last ~p, copy ~p}",
                  [byte_size(B), erlang:phash2(B), byte_size(Appended),
                   erlang:phash2(Appended), Split, Last, binary:copy(B) =:= B]);
show(Other) -> io_lib:format("~p", [Other]).

read_files(Dir) ->
    F = filename:join(Dir, "rf"),
    lists:foreach(
      fun(Size) ->
              ok = file:write_file(F, data(Size)),
              {ok, B} = file:read_file(F),
              io:format("read_file ~p: ~p ~p ~p~n", [Size, byte_size(B), erlang:phash2(B), B =:= data(Size)])
      end,
      [0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 131072, 200001]).

interleaved(Dir) ->
    F = filename:join(Dir, "i"),
    {ok, D} = file:open(F, [raw, binary, read, write]),
    Chunk = data(65536),
    [ok = file:write(D, Chunk) || _ <- lists:seq(1, 8)],
    {ok, 0} = file:position(D, bof),
    Reads = [begin {ok, B} = file:read(D, 50000), erlang:phash2(B) end || _ <- lists:seq(1, 10)],
    Last = file:read(D, 50000),
    ok = file:write(D, <<"end">>),
    {ok, Pos} = file:position(D, cur),
    Again = file:pread(D, Pos - 10, 100),
    ok = file:close(D),
    io:format("interleaved: ~p ~s ~p ~s~n", [Reads, show(Last), Pos, show(Again)]).
