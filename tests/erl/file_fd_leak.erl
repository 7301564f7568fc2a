-module(file_fd_leak).
%% No descriptor leak (/proc/self/fd): files closed by file:close, files whose owner exits or is
%% killed mid-read, read_file/write_file; fifo_kill/1 (driven by FileFdLeakTest) kills a process
%% whose read on a FIFO is in flight: the descriptor stays until the read completes, then goes.
-export([main/0, nfd/0, fifo_kill/1]).

main() ->
    Dir = "/tmp/jbeam_file_fd_leak." ++ os:getpid(),
    ok = file:make_dir(Dir),
    F = filename:join(Dir, "f"),
    ok = file:write_file(F, binary:copy(<<"x">>, 1048576)),
    N0 = nfd(),
    [begin {ok, D} = file:open(F, [raw, binary, read, write]), {ok, _} = file:read(D, 10),
           ok = file:write(D, <<"y">>), ok = file:close(D) end || _ <- lists:seq(1, 200)],
    [{ok, _} = file:read_file(F) || _ <- lists:seq(1, 50)],
    Self = self(),
    %% owners exiting normally without closing
    [spawn(fun() -> {ok, _} = file:open(F, [raw, read]), {ok, _} = file:open(F, [read]), Self ! done end)
     || _ <- lists:seq(1, 50)],
    [receive done -> ok end || _ <- lists:seq(1, 50)],
    %% owners killed while reading
    Pids = [spawn(fun() -> {ok, H} = file:open(F, [raw, binary, read]), Self ! {opened, self()}, loop(H) end)
            || _ <- lists:seq(1, 20)],
    [receive {opened, P} -> ok end || P <- Pids],
    Refs = [erlang:monitor(process, P) || P <- Pids],
    [exit(P, kill) || P <- Pids],
    [receive {'DOWN', R, process, _, _} -> ok end || R <- Refs],
    timer:sleep(300),
    N1 = nfd(),
    io:format("leak ~p~n", [N1 - N0 < 5]),
    ok = file:del_dir_r(Dir).

loop(H) ->
    case file:read(H, 65536) of
        {ok, _} -> loop(H);
        eof -> {ok, 0} = file:position(H, bof), loop(H)
    end.

fifo_kill(Fifo) ->
    N0 = nfd(),
    Self = self(),
    Pid = spawn(fun() -> {ok, H} = file:open(Fifo, [raw, binary, read, write]), Self ! opened, file:read(H, 5) end),
    receive opened -> ok end,
    timer:sleep(300),
    Ref = erlang:monitor(process, Pid),
    exit(Pid, kill),
    receive {'DOWN', Ref, process, _, _} -> ok end,
    timer:sleep(200),
    N1 = nfd(),
    {ok, W} = file:open(Fifo, [raw, binary, write]),
    ok = file:write(W, <<"12345">>),
    ok = file:close(W),
    timer:sleep(300),
    N2 = nfd(),
    io:format("held ~p released ~p~n", [N1 - N0, N2 - N0]).

nfd() -> {ok, L} = file:list_dir("/proc/self/fd"), length(L).
