-module(lib_mochiweb).
-export([main/0]).
%% mochiweb: a web server on {packet, http} sockets, answering httpc.
main() ->
    Loop = fun(Req) ->
        case mochiweb_request:get(path, Req) of
            "/hello" -> mochiweb_request:ok({"text/plain", [{"X-Test", "1"}], "hello " ++ proplists:get_value("n", mochiweb_request:parse_qs(Req), "?")}, Req);
            "/echo" -> Body = mochiweb_request:recv_body(Req), mochiweb_request:respond({200, [], [<<"got ">>, Body]}, Req);
            _ -> mochiweb_request:not_found(Req)
        end
    end,
    {ok, _} = mochiweb_http:start([{name, mw_test}, {port, 0}, {ip, {127,0,0,1}}, {loop, Loop}]),
    Port = mochiweb_socket_server:get(mw_test, port),
    ok = inets:start(),
    U = "http://127.0.0.1:" ++ integer_to_list(Port),
    {ok, {{_, C1, _}, H1, B1}} = httpc:request(U ++ "/hello?n=world"),
    io:format("~p ~p ~p~n", [C1, B1, proplists:get_value("x-test", H1)]),
    {ok, {{_, C2, _}, _, B2}} = httpc:request(post, {U ++ "/echo", [], "text/plain", "payload"}, [], []),
    io:format("~p ~p~n", [C2, B2]),
    {ok, {{_, C3, _}, _, _}} = httpc:request(U ++ "/missing"),
    io:format("~p~n", [C3]),
    Rs = [begin {ok, {{_, C, _}, _, _}} = httpc:request(U ++ "/hello"), C end || _ <- lists:seq(1, 50)],
    io:format("~w~n", [lists:usort(Rs)]),
    mochiweb_http:stop(mw_test),
    ok.
