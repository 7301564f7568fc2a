-module(cover_run).
-export([main/0]).
main() ->
    D = "/tmp/cover_run_" ++ os:getpid(),
    ok = filelib:ensure_dir(D ++ "/x"),
    Src = D ++ "/cov_target.erl",
    ok = file:write_file(Src, <<"-module(cov_target).\n-export([f/1]).\nf(0) -> zero;\nf(N) when N > 0 -> pos;\nf(_) ->\n    neg.\n">>),
    {ok, cov_target} = cover:compile(Src, [{outdir, D}]),
    [cov_target:f(X) || X <- [0, 1, 2, 3]],
    io:format("~p~n", [cover:analyse(cov_target, calls, function)]),
    io:format("~p~n", [cover:analyse(cov_target, coverage, line)]),
    {ok, Out} = cover:analyse_to_file(cov_target, D ++ "/out.txt", []),
    {ok, Txt} = file:read_file(Out),
    io:format("~s~n", [[L || L <- binary:split(Txt, <<"\n">>, [global]), binary:match(L, <<"|">>) =/= nomatch]]),
    cover:stop(),
    os:cmd("rm -rf " ++ D),
    ok.
