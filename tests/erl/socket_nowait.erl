-module(socket_nowait).
%% The nowait / select-handle protocol of the socket module (ADR 0054): {select, SelectInfo} results,
%% {'$socket', Socket, select, Handle} messages when the socket is ready, partial recv with a select,
%% cancel (before and after the select message), queued readers served in turn, abort messages and
%% {error, closed} for waiters when the socket is closed, and a send that waits for buffer space.
-export([main/0]).
main() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    {select, {select_info, accept, AH}} = socket:accept(L, nowait),
    io:format("accept info ~p~n", [socket:info(L) =/= x]),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, Addr),
    io:format("accept msg ~p~n", [receive {'$socket', L, select, AH} -> select after 2000 -> none end]),
    {ok, A} = socket:accept(L, nowait),
    %% recv nowait
    {select, {select_info, recv, RH}} = socket:recv(A, 0, nowait),
    #{num_readers := NR} = socket:info(A),
    io:format("readers ~p~n", [NR]),
    ok = socket:send(C, <<"ping">>),
    io:format("recv msg ~p~n", [receive {'$socket', A, select, RH} -> select after 2000 -> none end]),
    io:format("recv ~p~n", [socket:recv(A, 0, nowait)]),
    %% a select handle of our own, and a partial read
    MyRef = make_ref(),
    ok = socket:send(C, <<"abc">>),
    timer:sleep(20),
    {select, {{select_info, recv, MyRef}, Part}} = socket:recv(A, 10, MyRef),
    io:format("partial ~p~n", [Part]),
    ok = socket:send(C, <<"defghij">>),
    io:format("own handle msg ~p~n", [receive {'$socket', A, select, MyRef} -> select after 2000 -> none end]),
    io:format("rest ~p~n", [socket:recv(A, 7, nowait)]),
    %% cancel before anything arrives: no message afterwards
    {select, SI1} = socket:recv(A, 0, nowait),
    io:format("cancel ~p~n", [socket:cancel(A, SI1)]),
    io:format("cancel again ~p~n", [socket:cancel(A, SI1) =:= {error, {invalid, SI1}}]),
    ok = socket:send(C, <<"late">>),
    timer:sleep(50),
    io:format("no msg ~p~n", [flush()]),
    io:format("data kept ~p~n", [socket:recv(A, 0, nowait)]),
    %% cancel after the select message went out: the message is flushed
    {select, {select_info, recv, H2} = SI2} = socket:recv(A, 0, nowait),
    ok = socket:send(C, <<"x">>),
    timer:sleep(50),
    io:format("cancel sent ~p ~p~n", [socket:cancel(A, SI2), receive {'$socket', A, select, H2} -> left after 0 -> flushed end]),
    {ok, <<"x">>} = socket:recv(A, 0, nowait),
    %% two readers: the second queues behind the first and is served after it
    Self = self(),
    {select, {select_info, recv, H3}} = socket:recv(A, 0, nowait),
    P2 = spawn(fun() -> Self ! {p2, socket:recv(A, 0, 3000)} end),
    timer:sleep(50),
    #{num_readers := NR2} = socket:info(A),
    io:format("readers ~p~n", [NR2]),
    ok = socket:send(C, <<"first">>),
    receive {'$socket', A, select, H3} -> ok end,
    io:format("first ~p~n", [socket:recv(A, 0, nowait)]),
    ok = socket:send(C, <<"second">>),
    io:format("second ~p~n", [receive {p2, R2} -> R2 after 3000 -> none end]),
    io:format("p2 done ~p~n", [is_process_alive(P2)]),
    %% the current reader dies after its select message came: the queued reader takes over
    P6 = spawn(fun() -> {select, {select_info, recv, H6}} = socket:recv(A, 0, nowait), Self ! p6_waits,
                        receive {'$socket', A, select, H6} -> Self ! p6_told, receive never -> ok end end end),
    receive p6_waits -> ok end,
    ok = socket:send(C, <<"for p6">>),
    receive p6_told -> ok end,
    P7 = spawn(fun() -> Self ! {p7, socket:recv(A, 0, 3000)} end),
    timer:sleep(50),
    exit(P6, kill),
    io:format("taken over ~p~n", [receive {p7, R7} -> R7 after 4000 -> none end]),
    io:format("p7 done ~p~n", [is_process_alive(P7)]),
    %% close while others wait: a blocking recv gets {error, closed}, a nowait one an abort message
    P3 = spawn(fun() -> Self ! {p3, socket:recv(A, 0, 5000)} end),
    timer:sleep(50),
    {select, {select_info, accept, AH2}} = socket:accept(L, nowait),
    Closer = spawn(fun() -> Self ! {closed, socket:close(L), socket:close(A)} end),
    io:format("close ~p~n", [receive {closed, X, Y} -> {X, Y} after 3000 -> none end]),
    io:format("waiter ~p~n", [receive {p3, R3} -> R3 after 3000 -> none end]),
    io:format("abort ~p~n", [receive {'$socket', L, abort, {AH2, Why}} -> Why after 3000 -> none end]),
    io:format("closer ~p ~p~n", [is_process_alive(P3), is_process_alive(Closer)]),
    %% the closer's own nowait operation is aborted too
    {ok, U} = socket:open(inet, dgram, udp),
    {select, {select_info, recv, UH}} = socket:recv(U, 0, nowait),
    ok = socket:close(U),
    io:format("own abort ~p~n", [receive {'$socket', U, abort, {UH, UWhy}} -> UWhy after 2000 -> none end]),
    %% a send that fills the buffers waits for space (nowait returns the rest)
    {ok, L2} = socket:open(inet, stream, tcp),
    ok = socket:bind(L2, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L2),
    {ok, Addr2} = socket:sockname(L2),
    {ok, C2} = socket:open(inet, stream, tcp),
    ok = socket:setopt(C2, {socket, sndbuf}, 8192),
    ok = socket:connect(C2, Addr2),
    {ok, A2} = socket:accept(L2),
    Chunk = binary:copy(<<"s">>, 65536),
    {N, SI3, Rest} = fill(C2, Chunk, 0),
    io:format("filled ~p ~p~n", [N > 0, byte_size(Rest) =< byte_size(Chunk)]),
    {select_info, {send, _}, H4} = element(1, SI3),
    Got = drain(A2, 0),
    io:format("send msg ~p~n", [receive {'$socket', C2, select, H4} -> select after 3000 -> none end]),
    io:format("drained ~p~n", [Got > 0]),
    [socket:close(S) || S <- [C, C2, A2, L2]],
    ok.

fill(S, Chunk, N) ->
    case socket:send(S, Chunk, nowait) of
        ok -> fill(S, Chunk, N + 1);
        {select, {SI, Rest}} -> {N, {SI}, Rest};
        {select, SI} -> {N, {SI}, Chunk}
    end.

drain(S, N) ->
    case socket:recv(S, 0, 200) of
        {ok, B} -> drain(S, N + byte_size(B));
        {error, timeout} -> N
    end.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.
