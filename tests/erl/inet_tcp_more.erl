-module(inet_tcp_more).
-export([main/0]).

%% gen_tcp: packet framing, close detection, controlling_process, half-close, IPv6, econnrefused.
main() ->
    packets(),
    closed_active(),
    controlling(),
    half_close(),
    ipv6(),
    refused(),
    io:format("done~n").

pair(Opts) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true} | Opts]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false} | Opts]),
    {ok, S} = gen_tcp:accept(L, 2000),
    gen_tcp:close(L),
    {C, S}.

packets() ->
    {C, S} = pair([{packet, 2}]),
    ok = gen_tcp:send(C, <<"one">>), ok = gen_tcp:send(C, <<"two!">>),
    io:format("p2 ~p ~p~n", [gen_tcp:recv(S, 0, 1000), gen_tcp:recv(S, 0, 1000)]),
    ok = inet:setopts(S, [{packet, raw}]),
    ok = gen_tcp:send(C, <<"abc">>),
    io:format("p2 raw ~p~n", [gen_tcp:recv(S, 5, 1000)]),
    ok = inet:setopts(S, [{packet, 4}, {active, true}]),
    ok = inet:setopts(C, [{packet, 4}]),
    ok = gen_tcp:send(C, lists:duplicate(300, $q)),
    receive {tcp, S, D4} -> io:format("p4 ~p~n", [byte_size(D4)]) after 1000 -> io:format("no p4~n") end,
    ok = inet:setopts(S, [{packet, line}, {active, false}]),
    ok = inet:setopts(C, [{packet, raw}]),
    ok = gen_tcp:send(C, <<"line one\nline two\npartial">>),
    io:format("line ~p ~p~n", [gen_tcp:recv(S, 0, 1000), gen_tcp:recv(S, 0, 1000)]),
    io:format("line partial ~p~n", [gen_tcp:recv(S, 0, 100)]),
    ok = inet:setopts(S, [{packet, 1}, {header, 2}, {active, once}]),
    ok = gen_tcp:send(C, <<5, "hello">>),
    receive {tcp, S, DH} -> io:format("header ~p~n", [DH]) after 1000 -> io:format("no header~n") end,
    gen_tcp:close(C), gen_tcp:close(S).

closed_active() ->
    {C, S} = pair([]),
    ok = inet:setopts(S, [{active, true}]),
    ok = gen_tcp:send(C, <<"bye">>),
    gen_tcp:close(C),
    receive {tcp, S, D} -> io:format("last ~p~n", [D]) after 1000 -> io:format("no data~n") end,
    receive {tcp_closed, S} -> io:format("tcp_closed~n") after 1000 -> io:format("no tcp_closed~n") end,
    io:format("send after ~p~n", [gen_tcp:send(S, <<"x">>)]),
    gen_tcp:close(S).

controlling() ->
    {C, S} = pair([]),
    Self = self(),
    Pid = spawn(fun() ->
                        receive go -> ok end,
                        ok = inet:setopts(S, [{active, once}]),
                        receive {tcp, S, D} -> Self ! {got, D} after 1000 -> Self ! {got, none} end
                end),
    io:format("not owner ~p~n", [spawn_wait(fun() -> gen_tcp:controlling_process(S, self()) end)]),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    ok = gen_tcp:send(C, <<"to new owner">>),
    receive {got, D} -> io:format("new owner got ~p~n", [D]) end,
    %% the owner exits: the socket closes
    Ref = monitor(process, Pid),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("after owner exit ~p~n", [gen_tcp:recv(C, 0, 1000)]),
    gen_tcp:close(C).

spawn_wait(F) ->
    Self = self(),
    spawn(fun() -> Self ! {res, F()} end),
    receive {res, R} -> R end.

half_close() ->
    {C, S} = pair([]),
    ok = gen_tcp:send(C, <<"request">>),
    ok = gen_tcp:shutdown(C, write),
    io:format("server got ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    io:format("server eof ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    {C2, S2} = pair([{exit_on_close, false}]),
    ok = gen_tcp:shutdown(C2, write),
    io:format("eof2 ~p~n", [gen_tcp:recv(S2, 0, 1000)]),
    ok = gen_tcp:send(S2, <<"reply">>),
    io:format("client reads reply ~p~n", [gen_tcp:recv(C2, 0, 1000)]),
    [gen_tcp:close(X) || X <- [C, S, C2, S2]].

ipv6() ->
    case gen_tcp:listen(0, [inet6, binary, {active, false}, {ip, {0,0,0,0,0,0,0,1}}]) of
        {ok, L} ->
            {ok, P} = inet:port(L),
            {ok, C} = gen_tcp:connect({0,0,0,0,0,0,0,1}, P, [inet6, binary, {active, false}]),
            {ok, S} = gen_tcp:accept(L, 1000),
            ok = gen_tcp:send(S, <<"v6">>),
            io:format("v6 ~p~n", [gen_tcp:recv(C, 0, 1000)]),
            {ok, {Addr, _}} = inet:peername(C),
            io:format("v6 peer ~p~n", [Addr]),
            [gen_tcp:close(X) || X <- [C, S, L]];
        E -> io:format("v6 listen ~p~n", [E])
    end.

refused() ->
    {ok, L} = gen_tcp:listen(0, []),
    {ok, P} = inet:port(L),
    gen_tcp:close(L),
    io:format("refused ~p~n", [gen_tcp:connect({127,0,0,1}, P, [], 1000)]).
