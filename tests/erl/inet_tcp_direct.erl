-module(inet_tcp_direct).
-export([main/0]).

%% gen_tcp's passive data path (prim_inet:send/recv0, done natively by jbeam): data already buffered or
%% arriving later, split packets, timeouts (0 and short), errors (active socket, closed socket, bad
%% options and data), peer close with exit_on_close false, half-close both ways, send_timeout under a
%% slow reader, many queued round trips, recv from a new controlling process, IPv6 loopback.
main() ->
    buffered(),
    timeouts(),
    errors(),
    peer_close(),
    half_close(),
    send_timeout(),
    pipelined(),
    handed_over(),
    ipv6(),
    io:format("done~n").

pair(Opts) -> pair({127,0,0,1}, [], Opts).
pair(Addr, LOpts, Opts) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true} | LOpts ++ Opts]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect(Addr, P, [binary, {active, false} | LOpts ++ Opts]),
    {ok, S} = gen_tcp:accept(L, 2000),
    gen_tcp:close(L),
    {C, S}.

buffered() ->
    {C, S} = pair([]),
    ok = gen_tcp:send(C, <<"hello world">>),
    timer:sleep(50),
    io:format("buffered ~p ~p~n", [gen_tcp:recv(S, 5), gen_tcp:recv(S, 6, 1000)]),
    Self = self(),
    spawn(fun() -> timer:sleep(30), ok = gen_tcp:send(C, <<"abcd">>), timer:sleep(30), ok = gen_tcp:send(C, <<"efghij">>), Self ! sent end),
    io:format("split ~p~n", [gen_tcp:recv(S, 10, 2000)]),
    receive sent -> ok end,
    ok = gen_tcp:send(C, [<<"io">>, $l, "ist", [<<"s">>]]),
    timer:sleep(50),
    io:format("any ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    ok = inet:setopts(S, [list]),
    ok = gen_tcp:send(C, <<"as list">>),
    io:format("list ~p~n", [gen_tcp:recv(S, 7, 1000)]),
    ok = inet:setopts(S, [binary, {packet, 2}]),
    ok = gen_tcp:send(C, <<0, 3, "abc", 0, 2>>),
    io:format("p2 ~p ~p~n", [gen_tcp:recv(S, 0, 1000), gen_tcp:recv(S, 0, 100)]),
    ok = gen_tcp:send(C, <<"xy">>),
    io:format("p2 rest ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    io:format("p2 len ~p~n", [gen_tcp:recv(S, 3, 100)]),
    ok = inet:setopts(S, [{packet, 1}, {packet_size, 4}]),
    ok = gen_tcp:send(C, <<9, "123456789">>),
    io:format("packet_size ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    gen_tcp:close(C), gen_tcp:close(S).

timeouts() ->
    {C, S} = pair([]),
    io:format("t0 ~p~n", [gen_tcp:recv(S, 0, 0)]),
    io:format("t50 ~p~n", [gen_tcp:recv(S, 4, 50)]),
    ok = gen_tcp:send(C, <<"ab">>),
    io:format("short ~p~n", [gen_tcp:recv(S, 4, 100)]),
    io:format("rest ~p~n", [gen_tcp:recv(S, 2, 100)]),
    ok = gen_tcp:send(C, <<"now">>),
    timer:sleep(50),
    io:format("t0 data ~p~n", [gen_tcp:recv(S, 0, 0)]),
    gen_tcp:close(C), gen_tcp:close(S).

errors() ->
    {C, S} = pair([]),
    ok = inet:setopts(S, [{active, true}]),
    io:format("active recv ~p~n", [gen_tcp:recv(S, 0, 100)]),
    ok = inet:setopts(S, [{active, false}]),
    io:format("bad opts ~p~n", [catch prim_inet:send(C, <<"x">>, [bogus])]),
    io:format("force ~p~n", [prim_inet:send(C, <<"x">>, [force])]),
    io:format("got ~p~n", [gen_tcp:recv(S, 1, 1000)]),
    io:format("len with packet ~p~n", [begin ok = inet:setopts(S, [{packet, 2}]), gen_tcp:recv(S, 3, 10) end]),
    {'EXIT', {Why, _}} = (catch gen_tcp:recv(S, -1)),
    io:format("negative length ~p~n", [Why]),
    gen_tcp:close(C),
    io:format("closed ~p ~p~n", [gen_tcp:send(C, <<"x">>), gen_tcp:recv(C, 0, 10)]),
    io:format("prim closed ~p ~p~n", [prim_inet:send(C, <<"x">>, []), prim_inet:recv(C, 0, 10)]),
    gen_tcp:close(S).

peer_close() ->
    {C, S} = pair([{exit_on_close, false}]),
    ok = gen_tcp:send(C, <<"last words">>),
    gen_tcp:close(C),
    timer:sleep(50),
    io:format("before close ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    io:format("after close ~p ~p~n", [gen_tcp:recv(S, 0, 1000), gen_tcp:recv(S, 0, 1000)]),
    io:format("send after close ~p~n", [gen_tcp:send(S, <<"x">>)]),
    gen_tcp:close(S),
    {C2, S2} = pair([]),
    Self = self(),
    spawn(fun() -> Self ! {waiting, gen_tcp:recv(S2, 0, 2000)} end),
    timer:sleep(50),
    gen_tcp:close(C2),
    receive {waiting, R} -> io:format("waiting recv ~p~n", [R]) after 3000 -> io:format("waiting recv hangs~n") end,
    gen_tcp:close(S2).

half_close() ->
    {C, S} = pair([{exit_on_close, false}]),
    ok = gen_tcp:send(C, <<"request">>),
    ok = gen_tcp:shutdown(C, write),
    io:format("req ~p ~p~n", [gen_tcp:recv(S, 0, 1000), gen_tcp:recv(S, 0, 1000)]),
    io:format("send after shutdown ~p~n", [gen_tcp:send(C, <<"more">>)]),
    gen_tcp:close(S),
    io:format("end ~p~n", [gen_tcp:recv(C, 0, 1000)]),
    gen_tcp:close(C).

send_timeout() ->
    {C, S} = pair([{send_timeout, 200}, {sndbuf, 16384}, {recbuf, 16384}]),
    Chunk = binary:copy(<<"z">>, 65536),
    R = fill(C, Chunk, 2000),
    io:format("slow reader ~p~n", [R]),
    gen_tcp:close(C), gen_tcp:close(S),
    {C2, S2} = pair([{send_timeout, 200}, {send_timeout_close, true}, {sndbuf, 16384}, {recbuf, 16384}]),
    io:format("slow reader close ~p~n", [fill(C2, Chunk, 2000)]),
    io:format("after timeout close ~p~n", [gen_tcp:send(C2, <<"x">>)]),
    gen_tcp:close(C2), gen_tcp:close(S2).

fill(_, _, 0) -> gave_up;
fill(C, Chunk, N) ->
    case gen_tcp:send(C, Chunk) of
        ok -> fill(C, Chunk, N - 1);
        Err -> Err
    end.

pipelined() ->
    {C, S} = pair([{nodelay, true}]),
    Echo = spawn_link(fun() -> echo(S) end),
    ok = gen_tcp:controlling_process(S, Echo),
    Msgs = [<<I:32, (binary:copy(<<I>>, 60))/binary>> || I <- lists:seq(1, 200)],
    [ok = gen_tcp:send(C, M) || M <- Msgs],
    Got = [begin {ok, B} = gen_tcp:recv(C, 64, 2000), B end || _ <- Msgs],
    io:format("pipelined ~p~n", [Got =:= Msgs]),
    Rtt = [begin ok = gen_tcp:send(C, M), {ok, B} = gen_tcp:recv(C, 64, 2000), B end || M <- Msgs],
    io:format("round trips ~p~n", [Rtt =:= Msgs]),
    gen_tcp:close(C).

echo(S) ->
    case gen_tcp:recv(S, 64) of
        {ok, D} -> ok = gen_tcp:send(S, D), echo(S);
        {error, _} -> gen_tcp:close(S)
    end.

handed_over() ->
    {C, S} = pair([]),
    Self = self(),
    P = spawn(fun() -> receive go -> Self ! {got, gen_tcp:recv(S, 3, 1000)} end end),
    ok = gen_tcp:controlling_process(S, P),
    ok = gen_tcp:send(C, <<"abc">>),
    P ! go,
    receive {got, R} -> io:format("new owner ~p~n", [R]) end,
    gen_tcp:close(C).

ipv6() ->
    {C, S} = pair({0,0,0,0,0,0,0,1}, [inet6], []),
    ok = gen_tcp:send(C, <<"six">>),
    io:format("v6 ~p~n", [gen_tcp:recv(S, 3, 1000)]),
    ok = gen_tcp:send(S, <<"back">>),
    io:format("v6 back ~p~n", [gen_tcp:recv(C, 4, 1000)]),
    gen_tcp:close(C), gen_tcp:close(S).
