-module(socket_fd).
%% socket:open/1,2 over an existing descriptor (ADR 0054): a gen_tcp listen socket's fd dup'd into a
%% socket (domain, type and protocol asked of the descriptor), accepting on it, the original still
%% working after the dup is closed, and descriptors that are no socket ({invalid, {options, domain, _}}).
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [{active, false}]),
    {ok, P} = inet:port(L),
    {ok, Fd} = prim_inet:getfd(L),
    {ok, S} = socket:open(Fd),
    io:format("~p~n", [maps:with([domain, type, protocol], socket:info(S))]),
    io:format("~p~n", [socket:sockname(S) =:= {ok, #{family => inet, addr => {0,0,0,0}, port => P}}]),
    io:format("~p~n", [socket:open(-1)]),
    io:format("~p~n", [socket:open(9999)]),
    io:format("~p~n", [try socket:open(foo) catch error:E -> E end]),
    {ok, F} = file:open("/proc/self/stat", [read, raw]),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, #{family => inet, addr => loopback, port => P}),
    {ok, A} = socket:accept(S, 1000),
    io:format("~p~n", [maps:with([domain, type, protocol], socket:info(A))]),
    ok = socket:send(C, <<"via fd">>),
    io:format("~p~n", [socket:recv(A, 0, 1000)]),
    [socket:close(X) || X <- [S, A, C]],
    file:close(F),
    %% the original descriptor still works after the dup is closed
    {ok, C2} = gen_tcp:connect({127,0,0,1}, P, [{active, false}]),
    {ok, A2} = gen_tcp:accept(L, 1000),
    io:format("orig ~p~n", [gen_tcp:send(C2, "x") =:= ok andalso gen_tcp:recv(A2, 1, 1000) =:= {ok, "x"}]),
    %% a gen_udp socket's descriptor
    {ok, U} = gen_udp:open(0, [binary, {active, false}]),
    {ok, UP} = inet:port(U),
    {ok, UFd} = prim_inet:getfd(U),
    {ok, US} = socket:open(UFd),
    io:format("~p~n", [maps:with([domain, type, protocol], socket:info(US))]),
    {ok, V} = socket:open(inet, dgram, udp),
    ok = socket:sendto(V, <<"to fd">>, #{family => inet, addr => loopback, port => UP}),
    {ok, {_, D}} = socket:recvfrom(US, 0, 1000),
    io:format("~p~n", [D]),
    [socket:close(X) || X <- [US, V]],
    gen_udp:close(U),
    io:format("done~n").
