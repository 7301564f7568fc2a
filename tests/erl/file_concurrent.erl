-module(file_concurrent).
%% Many processes doing file I/O at once (more operations than the ring has entries may be in
%% flight): each writes and reads back its own raw file; 50 processes pwrite into one shared
%% (non-raw, io server) handle at distinct offsets, then 50 pread it. Results are checksums.
-export([main/0]).

main() ->
    Dir = "/tmp/jbeam_file_concurrent." ++ os:getpid(),
    ok = file:make_dir(Dir),
    try run(Dir) after file:del_dir_r(Dir) end.

run(Dir) ->
    Self = self(),
    N = 100,
    [spawn_link(fun() -> Self ! {own, I, own_file(Dir, I)} end) || I <- lists:seq(1, N)],
    Own = lists:sort([receive {own, I, R} -> {I, R} end || _ <- lists:seq(1, N)]),
    io:format("own files: ~p~n", [erlang:phash2(Own)]),
    io:format("own ok: ~p~n", [lists:all(fun({_, {ok, _}}) -> true; (_) -> false end, Own)]),
    Shared = filename:join(Dir, "shared"),
    {ok, S} = file:open(Shared, [binary, read, write]),
    [spawn_link(fun() -> ok = file:pwrite(S, I * 4096, binary:copy(<<I>>, 4096)), Self ! {pw, I} end)
     || I <- lists:seq(0, 49)],
    [receive {pw, I} -> ok end || I <- lists:seq(0, 49)],
    [spawn_link(fun() -> {ok, B} = file:pread(S, I * 4096, 4096), Self ! {pr, I, B =:= binary:copy(<<I>>, 4096)} end)
     || I <- lists:seq(0, 49)],
    io:format("shared preads: ~p~n", [lists:usort([receive {pr, I, Ok} -> Ok end || I <- lists:seq(0, 49)])]),
    {ok, All} = file:pread(S, 0, 50 * 4096),
    io:format("shared: ~p ~p~n", [byte_size(All), erlang:phash2(All)]),
    ok = file:close(S).

own_file(Dir, I) ->
    F = filename:join(Dir, integer_to_list(I)),
    {ok, W} = file:open(F, [raw, binary, write]),
    Chunks = [binary:copy(<<I, K>>, 2048) || K <- lists:seq(1, 64)],
    [ok = file:write(W, C) || C <- Chunks],
    ok = file:close(W),
    {ok, R} = file:open(F, [raw, binary, read]),
    Back = read_all(R, []),
    ok = file:close(R),
    case Back =:= iolist_to_binary(Chunks) of
        true -> {ok, erlang:phash2(Back)};
        false -> {mismatch, byte_size(Back)}
    end.

read_all(R, Acc) ->
    case file:read(R, 3000) of
        {ok, B} -> read_all(R, [B | Acc]);
        eof -> iolist_to_binary(lists:reverse(Acc))
    end.
