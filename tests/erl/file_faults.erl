-module(file_faults).
%% File faults as OTP reports them: closed handles, missing files and directories, wrong types,
%% exclusive creation, bad arguments; a reader killed while its read is in flight (the VM keeps
%% running and the owner's exit closes its files).
-export([main/0]).

main() ->
    Dir = "/tmp/jbeam_file_faults." ++ os:getpid(),
    ok = file:make_dir(Dir),
    try run(Dir) after cleanup(Dir) end.

run(Dir) ->
    F = filename:join(Dir, "f"),
    ok = file:write_file(F, <<"0123456789">>),
    {ok, D} = file:open(F, [raw, binary, read, write]),
    ok = file:close(D),
    p([file:read(D, 1), file:write(D, <<"x">>), file:pread(D, 0, 1), file:pwrite(D, 0, <<"x">>),
       file:sync(D), file:datasync(D), file:position(D, 0), file:truncate(D), file:close(D)]),
    %% non-raw (io server) handle after close
    {ok, S} = file:open(F, [read, binary]),
    ok = file:close(S),
    p([file:read(S, 1), file:write(S, <<"x">>), file:close(S)]),
    Missing = filename:join(Dir, "nope"),
    p([file:open(Missing, [raw, read]), file:open(Missing, [read]),
       file:open(filename:join([Dir, "nodir", "x"]), [raw, write]),
       file:read_file(Missing), file:read_file_info(Missing), file:delete(Missing),
       file:list_dir(Missing), file:del_dir(Missing), file:rename(Missing, F)]),
    p([file:open(Dir, [raw, read]), file:open(Dir, [raw, write]), file:read_file(Dir),
       file:open(filename:join(F, "x"), [raw, read]), file:make_dir(F), file:make_dir(Dir)]),
    p([file:open(F, [raw, write, exclusive]), element(1, file:open(F, [raw, read, bogus_mode])),
       element(1, catch file:read(not_a_file, 1))]),
    %% read-only handle refuses writes; write-only refuses reads
    {ok, RO} = file:open(F, [raw, binary, read]),
    p([file:write(RO, <<"x">>), file:pwrite(RO, 0, <<"x">>), file:truncate(RO)]),
    ok = file:close(RO),
    {ok, WO} = file:open(filename:join(Dir, "w"), [raw, binary, write]),
    p([file:read(WO, 1), file:pread(WO, 0, 1)]),
    ok = file:close(WO),
    p([catch file:pread(F, -1, 1), file:position(D, {bof, -1})]),
    %% killed while reading: a slow read (many readers of a big file) interrupted by kill
    Big = filename:join(Dir, "big"),
    ok = file:write_file(Big, binary:copy(<<"abcdefgh">>, 1048576)),
    Self = self(),
    Pids = [spawn(fun() -> {ok, H} = file:open(Big, [raw, binary, read]), Self ! {opened, self()}, loop_read(H) end)
            || _ <- lists:seq(1, 20)],
    [receive {opened, P} -> ok end || P <- Pids],
    Refs = [erlang:monitor(process, P) || P <- Pids],
    [exit(P, kill) || P <- Pids],
    p(lists:usort([receive {'DOWN', R, process, _, Why} -> Why end || R <- Refs])),
    p(file:read_file(F)),
    ok.

loop_read(H) ->
    case file:read(H, 1048576) of
        {ok, _} -> loop_read(H);
        eof -> {ok, 0} = file:position(H, bof), loop_read(H)
    end.

p(T) -> io:format("~p~n", [T]).

cleanup(Dir) ->
    {ok, Fs} = file:list_dir(Dir),
    [file:delete(filename:join(Dir, N)) || N <- Fs],
    file:del_dir(Dir).
