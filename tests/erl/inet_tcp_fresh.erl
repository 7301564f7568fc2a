-module(inet_tcp_fresh).
%% Sockets set up on the poll thread (an accept that waited for its connection, a connect that waited
%% for its handshake) take no read-ahead until they have delivered data (ADR 0021): data and closes the
%% peer sent before the first recv are still all seen, large transfers arrive whole, closing such a
%% socket unread with data pending releases it, and many accept/connect/close rounds leave no
%% descriptors behind. Also iodata shapes through send and port_control.
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {backlog, 256}]),
    {ok, P} = inet:port(L),
    Self = self(),
    %% 1. the acceptor waits first; the peer sends and closes before the first recv
    A1 = spawn(fun() -> {ok, S} = gen_tcp:accept(L), ok = gen_tcp:controlling_process(S, Self), Self ! {acc, S} end),
    timer:sleep(30),
    {ok, C1} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    S1 = receive {acc, S} -> S end,
    ok = gen_tcp:send(C1, <<"before">>),
    ok = gen_tcp:close(C1),
    timer:sleep(50),
    io:format("1 ~p ~p~n", [gen_tcp:recv(S1, 0, 2000), gen_tcp:recv(S1, 0, 2000)]),
    gen_tcp:close(S1),
    false = is_process_alive(A1),
    %% 2. a big transfer to a fresh socket, read late, then a close
    {ok, C2} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S2} = gen_tcp:accept(L),
    Big = binary:copy(<<"0123456789abcdef">>, 20000),
    Sender = spawn(fun() -> ok = gen_tcp:send(S2, Big), ok = gen_tcp:close(S2) end),
    timer:sleep(50),
    Got = drain(C2, []),
    io:format("2 ~p ~p~n", [byte_size(Got), Got =:= Big]),
    gen_tcp:close(C2),
    _ = Sender,
    %% 3. after the first packet the socket reads ahead: a ping-pong still keeps order
    {ok, C3} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S3} = gen_tcp:accept(L),
    Echo = spawn(fun() -> echo(S3) end),
    ok = gen_tcp:controlling_process(S3, Echo),
    R3 = [begin ok = gen_tcp:send(C3, <<I:32>>), {ok, <<J:32>>} = gen_tcp:recv(C3, 4, 2000), J end || I <- lists:seq(1, 200)],
    io:format("3 ~p~n", [R3 =:= lists:seq(1, 200)]),
    gen_tcp:close(C3),
    %% 4. closed unread with data pending: the peer sees the close (or a reset)
    {ok, C4} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S4} = gen_tcp:accept(L),
    ok = gen_tcp:send(C4, <<"unread">>),
    timer:sleep(20),
    ok = gen_tcp:close(S4),
    io:format("4 ~p~n", [case gen_tcp:recv(C4, 0, 2000) of {error, E} when E =:= closed; E =:= econnreset -> closed; X -> X end]),
    gen_tcp:close(C4),
    %% 5. many rounds with a waiting acceptor and connects that close at once: no descriptor left
    N0 = nfd(),
    Acc = spawn(fun() -> accept_n(L, 300), Self ! accepted end),
    [begin {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]), ok = gen_tcp:close(C) end || _ <- lists:seq(1, 300)],
    receive accepted -> ok end,
    false = is_process_alive(Acc),
    timer:sleep(100),
    io:format("5 ~p~n", [nfd() - N0 =< 0]),
    %% 6. iodata shapes: nested lists, binary tails, empty lists; port_control with bad data
    {ok, C6} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S6} = gen_tcp:accept(L),
    ok = gen_tcp:send(C6, [<<"a">>, [$b, [$c | <<"d">>]], [], [[], [[$e]]] | <<"f">>]),
    ok = gen_tcp:send(C6, [[[[[[$g]]]]], <<>>, $h]),
    io:format("6 ~p~n", [recv_n(S6, 8)]),
    io:format("6 ~p~n", [[case catch erlang:port_control(S6, 0, D) of {'EXIT', {R, _}} -> R; Other6 -> Other6 end
                          || D <- [[256], [-1], [$a | b], foo, [[1, [2 | 3]]]]]]),
    io:format("6 ~p~n", [[catch gen_tcp:send(S6, D) || D <- [[256], [$a | b], [<<1:1>>]]]]),
    gen_tcp:close(C6), gen_tcp:close(S6),
    gen_tcp:close(L),
    ok.

drain(S, Acc) ->
    case gen_tcp:recv(S, 0, 2000) of
        {ok, D} -> drain(S, [D | Acc]);
        {error, closed} -> iolist_to_binary(lists:reverse(Acc));
        Other -> Other
    end.

echo(S) ->
    case gen_tcp:recv(S, 0, 2000) of
        {ok, D} -> ok = gen_tcp:send(S, D), echo(S);
        _ -> gen_tcp:close(S)
    end.

accept_n(_, 0) -> ok;
accept_n(L, N) -> {ok, S} = gen_tcp:accept(L), ok = gen_tcp:close(S), accept_n(L, N - 1).

recv_n(S, N) ->
    {ok, D} = gen_tcp:recv(S, N, 2000),
    D.

nfd() -> {ok, Fs} = file:list_dir("/proc/self/fd"), length(Fs).
