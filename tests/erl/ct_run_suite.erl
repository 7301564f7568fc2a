-module(ct_run_suite).
-export([main/0]).
%% common_test runs a suite (passing, failing, skipped, parallel group) the way rebar3 ct does.
main() ->
    D = filename:join("/tmp", "ct_run_suite_" ++ os:getpid()),
    Logs = filename:join(D, "logs"),
    ok = filelib:ensure_dir(filename:join(Logs, "x")),
    ok = file:write_file(filename:join(D, "demo_SUITE.erl"), suite()),
    Self = self(),
    Sink = spawn(fun Sink() -> receive {io_request, F, R, _} -> F ! {io_reply, R, ok}, Sink(); _ -> Sink() end end),
    spawn(fun() -> group_leader(Sink, self()),
                   Self ! {result, ct:run_test([{dir, D}, {logdir, Logs}, {auto_compile, true}, {verbosity, 0}])} end),
    R = receive {result, X} -> X after 60000 -> timeout end,
    io:format("result ~p~n", [R]),
    [Run] = filelib:wildcard(filename:join(Logs, "ct_run.*")),
    Log = filelib:wildcard(filename:join(Run, "*/run.*/suite.log")),
    {ok, Bin} = file:read_file(hd(Log)),
    Lines = [L || L <- binary:split(Bin, <<"\n">>, [global]), binary:match(L, [<<"=case">>, <<"=result">>]) =/= nomatch],
    [io:format("~s~n", [strip(L)]) || L <- Lines],
    io:format("index ~p~n", [filelib:is_file(filename:join(Logs, "index.html"))]),
    os:cmd("rm -rf " ++ D),
    ok.
strip(L) -> re:replace(L, "\\s+$", "", [{return, binary}]).
suite() -> <<"
-module(demo_SUITE).
-include_lib(\"common_test/include/ct.hrl\").
-compile(nowarn_everything).
-export([all/0, groups/0, init_per_suite/1, end_per_suite/1, t_ok/1, t_fail/1, t_skip/1, t_par/1, t_throw/1]).
all() -> [t_ok, t_fail, t_skip, t_throw, {group, par}].
groups() -> [{par, [parallel], [t_par, t_par, t_par]}].
init_per_suite(C) -> [{k, v} | C].
end_per_suite(_) -> ok.
t_ok(C) -> v = ?config(k, C), ct:log(\"hello ~p\", [x]), ok.
t_fail(_) -> 1 = list_to_integer(\"2\").
t_skip(_) -> {skip, \"because\"}.
t_throw(_) -> throw(oops).
t_par(_) -> timer:sleep(50), ok.
">>.
