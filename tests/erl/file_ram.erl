-module(file_ram).
%% file:open(Data, [ram | _]): OTP's ram_file over the ram_file_drv port driver, and the
%% in-memory archives built on it (erl_tar and zip with binaries).
-export([main/0]).

main() ->
    {ok, R} = file:open(<<"hello world">>, [ram, read, write, binary]),
    p(file:read(R, 5)),
    p(file:position(R, cur)),
    p(file:read(R, 100)),
    p(file:read(R, 1)),
    p(file:read(R, 0)),
    p(file:position(R, {eof, -5})),
    p(file:write(R, <<"WORLD and more">>)),
    p(file:pread(R, 0, 100)),
    p(file:pread(R, 100, 5)),
    p(file:pread(R, [{0, 5}, {6, 3}, {1000, 1}])),
    p(file:pwrite(R, 30, <<"gap">>)),
    p(file:pread(R, 20, 20)),
    p(file:pwrite(R, [{0, <<"J">>}, {1, "E"}])),
    p(file:position(R, 4)),
    p(file:truncate(R)),
    p(ram_file:get_file(R)),
    p(ram_file:get_size(R)),
    p(file:position(R, {bof, -1})),
    p(file:position(R, {cur, -100})),
    p(file:position(R, foo)),
    p(file:sync(R)), p(file:datasync(R)),
    p(file:advise(R, 0, 10, sequential)),
    p(file:allocate(R, 0, 10)),
    p(file:pread(R, -1, 3)),
    p(file:close(R)),
    p(file:read(R, 1)),
    %% list mode: data comes back as strings
    {ok, L} = file:open("abc\ndef\n", [ram, read]),
    p(file:read(L, 2)),
    p(file:read(L, 100)),
    file:close(L),
    %% read-only and write-only
    {ok, Ro} = file:open(<<"ro">>, [ram, read, binary]),
    p(file:write(Ro, "x")), p(file:truncate(Ro)), p(file:read(Ro, 10)), file:close(Ro),
    {ok, Wo} = file:open(<<"wo">>, [ram, write, binary]),
    p(file:read(Wo, 10)), p(file:write(Wo, "x")), p(ram_file:get_file(Wo)), file:close(Wo),
    p(file:open(<<"x">>, [ram, append])),
    p(file:open(<<"x">>, [ram, bogus])),
    {ok, E} = file:open(<<>>, [ram, read, write, binary]),
    p(file:read(E, 3)), p(file:write(E, [<<"io">>, $l, ["ist"]])), p(ram_file:get_file(E)), file:close(E),
    %% erl_tar in memory
    {ok, Tar} = file:open(<<>>, [ram, read, write, binary]),
    {ok, TD} = erl_tar:init(Tar, write, fun(write, {Fd, Data}) -> file:write(Fd, Data);
                                           (position, {Fd, Pos}) -> file:position(Fd, Pos);
                                           (close, _) -> ok end),
    ok = erl_tar:add(TD, <<"file one">>, "one.txt", []),
    ok = erl_tar:add(TD, <<"second file">>, "dir/two.txt", []),
    ok = erl_tar:close(TD),
    {ok, TarBin} = ram_file:get_file(Tar),
    file:close(Tar),
    p(byte_size(TarBin) rem 512),
    p(erl_tar:extract({binary, TarBin}, [memory])),
    p(erl_tar:table({binary, TarBin})),
    %% zip in memory
    {ok, {_, Zip}} = zip:create("m.zip", [{"a.txt", <<"aaa">>}, {"b/c.txt", <<"ccc">>}], [memory]),
    p(zip:unzip(Zip, [memory])),
    p([element(2, F) || F <- element(2, zip:list_dir(Zip)), element(1, F) =:= zip_file]),
    p(zip:extract(Zip, [memory, {file_list, ["b/c.txt"]}])),
    ok.

p(X) -> io:format("~p~n", [X]).
