-module(file_fastpath).
%% The raw file paths that do not go through the completion ring (ADR 0012) must answer exactly
%% as the ring would: page-cache reads (partial reads at eof, eof, reads after writes on the same
%% descriptor, errors), small writes to regular files (sub-binaries, iolists, pwrite, append,
%% writes that go over the synchronous size limit, errors), reads that would block (a FIFO, so
%% the non-blocking attempt finds nothing and the ring takes over), and erlang:iolist_to_iovec/1,
%% which prim_file:write calls on every write. fifo/1 (FileBackendsTest makes the FIFO: jbeam has
%% no os:cmd) reads from a FIFO, where the non-blocking read finds nothing or part of the data and
%% the ring waits for the rest: a read returns once it has the size asked for.
-export([main/0, fifo/1]).

main() ->
    Dir = "/tmp/jbeam_file_fastpath." ++ os:getpid(),
    ok = file:make_dir(Dir),
    try
        iovec(),
        writes(Dir),
        reads(Dir)
    after
        file:del_dir_r(Dir)
    end.

iovec() ->
    Big = binary:copy(<<"x">>, 100),
    <<_:3/binary, Sub:50/binary, _/binary>> = Big,
    Cases = [<<>>, [<<>>], <<1, 2, 3>>, [<<1, 2, 3>>], [<<1>>, <<2>>], Sub, [Sub], [Sub, Sub],
             [1, 2, <<3>>], [[<<1>>]], [], [[]], [<<>>, <<>>], Big],
    io:format("iovec: ~p~n", [[erlang:iolist_to_iovec(C) || C <- Cases]]),
    io:format("iovec bad: ~p~n", [[try erlang:iolist_to_iovec(C) catch error:E -> E end
                                   || C <- [<<1:3>>, [<<1:3>>], atom, [256], [<<1>> | <<2>>]]]]).

writes(Dir) ->
    F = filename:join(Dir, "w"),
    {ok, W} = file:open(F, [raw, binary, write, read]),
    Big = list_to_binary([I rem 251 || I <- lists:seq(1, 200000)]),
    <<_:7/binary, Sub:1000/binary, _/binary>> = Big,
    io:format("write sub: ~p~n", [file:write(W, Sub)]),
    io:format("write iolist: ~p~n", [file:write(W, [<<"ab">>, $c, [<<"de">>, Sub], <<>>])]),
    io:format("write empty: ~p~n", [file:write(W, <<>>)]),
    io:format("write big: ~p~n", [file:write(W, Big)]),
    io:format("write 64k: ~p~n", [file:write(W, binary:part(Big, 0, 65536))]),
    io:format("write 64k+1: ~p~n", [file:write(W, binary:part(Big, 0, 65537))]),
    io:format("pwrite: ~p~n", [file:pwrite(W, 3, <<"PW">>)]),
    io:format("pwrite past end: ~p~n", [file:pwrite(W, 400000, [<<"tail">>, "!"])]),
    io:format("position: ~p~n", [file:position(W, cur)]),
    io:format("pwrite list: ~p~n", [file:pwrite(W, [{0, <<"A">>}, {10, <<"B">>}])]),
    io:format("write after pwrite: ~p~n", [file:write(W, <<"C">>)]),
    io:format("bad iodata: ~p~n", [catch file:write(W, [atom])]),
    ok = file:close(W),
    io:format("write closed: ~p~n", [file:write(W, <<"x">>)]),
    {ok, All} = file:read_file(F),
    io:format("written: ~p ~p~n", [byte_size(All), erlang:phash2(All)]),
    {ok, R} = file:open(F, [raw, binary, read]),
    io:format("write read-only: ~p~n", [file:write(R, <<"x">>)]),
    io:format("pwrite read-only: ~p~n", [file:pwrite(R, 0, <<"x">>)]),
    ok = file:close(R),
    A = filename:join(Dir, "a"),
    ok = file:write_file(A, <<"0123456789">>),
    {ok, Ap} = file:open(A, [raw, binary, append]),
    io:format("append: ~p ~p~n", [file:write(Ap, <<"ab">>), file:write(Ap, [<<"c">>, "d"])]),
    io:format("append pwrite: ~p~n", [file:pwrite(Ap, 0, <<"Z">>)]),
    ok = file:close(Ap),
    io:format("appended: ~p~n", [file:read_file(A)]).

reads(Dir) ->
    F = filename:join(Dir, "r"),
    Data = list_to_binary([I rem 253 || I <- lists:seq(1, 300000)]),
    ok = file:write_file(F, Data),
    {ok, R} = file:open(F, [raw, binary, read]),
    {ok, B1} = file:read(R, 65536),
    {ok, B2} = file:read(R, 1000000),
    io:format("reads: ~p ~p ~p~n", [byte_size(B1), byte_size(B2), <<B1/binary, B2/binary>> =:= Data]),
    io:format("read at eof: ~p~n", [file:read(R, 10)]),
    io:format("read zero: ~p~n", [file:read(R, 0)]),
    io:format("pread: ~p~n", [file:pread(R, 299995, 10)]),
    io:format("pread past eof: ~p~n", [file:pread(R, 400000, 10)]),
    io:format("pread list: ~p~n", [file:pread(R, [{0, 3}, {299999, 5}, {500000, 1}])]),
    {ok, 5} = file:position(R, 5),
    io:format("read after seek: ~p~n", [file:read(R, 4)]),
    {ok, Mid} = file:pread(R, 70000, 200000),
    io:format("pread big: ~p~n", [Mid =:= binary:part(Data, 70000, 200000)]),
    io:format("read continues: ~p~n", [file:read(R, 3)]),
    io:format("bad size: ~p~n", [catch file:read(R, -1)]),
    ok = file:close(R),
    io:format("read closed: ~p~n", [file:read(R, 1)]),
    {ok, W} = file:open(F, [raw, binary, write, append]),
    io:format("read write-only: ~p ~p~n", [file:read(W, 5), file:pread(W, 0, 5)]),
    ok = file:close(W),
    {ok, RW} = file:open(F, [raw, binary, read, write]),
    ok = file:write(RW, <<"abc">>),
    io:format("read after write: ~p~n", [file:read(RW, 3)]),
    ok = file:close(RW),
    E = filename:join(Dir, "empty"),
    ok = file:write_file(E, <<>>),
    {ok, ER} = file:open(E, [raw, binary, read]),
    io:format("empty: ~p ~p~n", [file:read(ER, 10), file:read_file(E)]),
    ok = file:close(ER),
    {ok, D} = file:open(Dir, [raw, binary, read, directory]),
    io:format("read directory: ~p~n", [file:read(D, 10)]),
    ok = file:close(D),
    {ok, Whole} = file:read_file(F),
    io:format("read_file: ~p~n", [byte_size(Whole)]).

fifo(Fifo) ->
    Self = self(),
    spawn_link(fun() ->
        {ok, H} = file:open(Fifo, [raw, binary, read, write]),
        Self ! opened,
        Self ! {r1, file:read(H, 10)},
        Self ! {r2, file:read(H, 4)},
        Self ! {r3, file:read(H, 1)},
        ok = file:close(H)
    end),
    receive opened -> ok end,
    timer:sleep(100),
    {ok, W} = file:open(Fifo, [raw, binary, write]),
    ok = file:write(W, <<"12345">>),
    timer:sleep(100),
    ok = file:write(W, [<<"678">>, <<"90abc">>]),
    R1 = receive {r1, X} -> X end,
    timer:sleep(100),
    ok = file:write(W, <<"z">>),
    R2 = receive {r2, Y} -> Y end,
    ok = file:write(W, <<"!">>),
    R3 = receive {r3, Z} -> Z end,
    io:format("fifo: ~p ~p ~p~n", [R1, R2, R3]),
    ok = file:close(W).
