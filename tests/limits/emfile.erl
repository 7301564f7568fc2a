%% Out of descriptors (issue 4, "emfile"): run with a low `ulimit -n` (EmfileTest runs it on erl
%% and on jbeam under the same limit). Once every descriptor is taken, each operation that needs
%% one returns {error, emfile} (a listen, a connect, an accept with a connection pending, a file
%% open, read_file, write_file, a UDP open), and the VM keeps running: after closing, a file opens
%% again and the pending connection is still there to accept, with its data.
%% Results are printed only after the descriptors are closed: printing may load a module.
-module(emfile).
-export([main/0]).

main() ->
    [code:ensure_loaded(M) || M <- [io, io_lib, io_lib_format, io_lib_pretty, string, lists, gen_tcp,
                                     gen_udp, inet_tcp, inet_udp, inet, prim_inet, file, filename,
                                     unicode, unicode_util, inet_db, error_logger, logger]],
    Dir = "/tmp/jbeam_emfile_" ++ os:getpid(),
    ok = file:make_dir(Dir),
    F = filename:join(Dir, "f"),
    ok = file:write_file(F, <<"x">>),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect("localhost", P, [binary, {active, false}]),
    {ok, U} = gen_udp:open(0, [binary]),
    {E, Hs} = fill(fun() -> file:open(F, [raw, read]) end),
    Res = [{raw_open, E},
           {raw_again, catch file:open(F, [raw, read])},
           {open, catch file:open(F, [read])},
           {read_file, catch file:read_file(F)},
           {write_file, catch file:write_file(F ++ "2", <<"y">>)},
           {listen, catch gen_tcp:listen(0, [])},
           {udp_open, catch gen_udp:open(0)},
           {connect, catch gen_tcp:connect("localhost", P, [], 1000)},
           {accept, catch gen_tcp:accept(L, 1000)},
           {accept_again, catch gen_tcp:accept(L, 0)},
           {udp_send, catch gen_udp:send(U, "localhost", P, <<"u">>)}],
    [ok = file:close(H) || H <- Hs],
    [io:format("~p: ~p~n", [K, V]) || {K, V} <- Res],
    {ok, H2} = file:open(F, [raw, read]),
    io:format("after close, read: ~p~n", [file:read(H2, 10)]),
    {ok, S} = gen_tcp:accept(L, 1000),
    ok = gen_tcp:send(C, <<"ping">>),
    io:format("after close, accepted connection: ~p~n", [gen_tcp:recv(S, 4, 1000)]),
    {ok, L2} = gen_tcp:listen(0, []),
    {ok, U2} = gen_udp:open(0),
    io:format("after close, listen and udp: ~p ~p~n", [is_port(L2), is_port(U2)]),
    [ok = gen_tcp:close(X) || X <- [S, C, L, L2]],
    [ok = gen_udp:close(X) || X <- [U, U2]],
    ok = file:close(H2),
    [file:delete(X) || X <- [F, F ++ "2"]],
    ok = file:del_dir(Dir).

fill(Open) -> fill(Open, []).
fill(Open, Acc) ->
    case Open() of
        {ok, H} -> fill(Open, [H | Acc]);
        {error, E} -> {E, Acc}
    end.
