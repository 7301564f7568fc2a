-module(inets_httpd).
-export([main/0]).
%% OTP's inets: httpd serving files from a directory and httpc fetching them over loopback
%% (200 with the body and headers, 404, a HEAD request).
main() ->
    ok = logger:set_primary_config(level, warning), % no notice that inets stopped
    ok = inets:start(),
    Root = filename:join("/tmp", "inets_httpd_" ++ os:getpid()),
    Docs = filename:join(Root, "www"),
    ok = filelib:ensure_dir(filename:join(Docs, "x")),
    ok = file:write_file(filename:join(Docs, "index.html"), <<"<h1>hi</h1>">>),
    {ok, Pid} = inets:start(httpd, [{port, 0}, {server_name, "t"}, {server_root, Root},
                                    {document_root, Docs}, {bind_address, {127, 0, 0, 1}}]),
    [{port, Port}] = httpd:info(Pid, [port]),
    Url = fun(P) -> "http://127.0.0.1:" ++ integer_to_list(Port) ++ P end,
    {ok, {{_, 200, Reason}, H, Body}} = httpc:request(get, {Url("/index.html"), []}, [], []),
    io:format("~s ~s ~p ~p~n", [Reason, Body, proplists:get_value("content-length", H), proplists:get_value("content-type", H)]),
    {ok, {{_, Code404, _}, _, _}} = httpc:request(Url("/nope")),
    io:format("~p~n", [Code404]),
    {ok, {{_, CodeHead, _}, HH, HBody}} = httpc:request(head, {Url("/index.html"), []}, [], []),
    io:format("~p ~p ~p~n", [CodeHead, proplists:get_value("content-length", HH), HBody]),
    ok = inets:stop(httpd, Pid),
    ok = inets:stop(),
    ok = file:delete(filename:join(Docs, "index.html")),
    ok = file:del_dir(Docs), ok = file:del_dir(Root).
