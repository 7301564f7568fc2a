-module(inet_tcp_connect).
-export([main/0]).
%% prim_inet:connect/4, which jbeam answers natively for tcp sockets and IPv4 addresses (ADR 0066):
%% its argument forms, errors, timeouts and a connect under way when its port closes, against OTP;
%% and prim_inet:accept/3, which takes a queued connection natively when no acceptor waits.

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, Port} = inet:port(L),
    Acceptor = spawn_link(fun() -> accept_loop(L) end),
    plain(Port),
    forms(Port),
    refused(),
    concurrent(Port),
    timeout_and_close(),
    accepts(),
    unlink(Acceptor),
    exit(Acceptor, kill),
    gen_tcp:close(L),
    io:format("done~n").

%% gen_tcp:connect with each kind of timeout, then an exchange over the connection.
plain(Port) ->
    [begin
         {ok, S} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}], T),
         ok = gen_tcp:send(S, <<"ping">>),
         io:format("plain ~p: ~p~n", [T, gen_tcp:recv(S, 0, 2000)]),
         gen_tcp:close(S)
     end || T <- [infinity, 5000]],
    {ok, S2} = gen_tcp:connect("localhost", Port, [list, {active, true}]),
    ok = gen_tcp:send(S2, "hello"),
    receive {tcp, S2, D} -> io:format("active: ~p~n", [D]) after 2000 -> io:format("active: nothing~n") end,
    gen_tcp:close(S2).

%% prim_inet:connect/4 called directly on sockets opened by prim_inet:open/3.
forms(Port) ->
    C = fun(IP, P, T) ->
                {ok, S} = prim_inet:open(tcp, inet, stream),
                R = (catch prim_inet:connect(S, IP, P, T)),
                Again = case R of ok -> prim_inet:connect(S, IP, P, T); _ -> none end,
                prim_inet:close(S),
                {R, Again}
        end,
    io:format("ip, port: ~p~n", [C({127,0,0,1}, Port, infinity)]),
    io:format("{ip, port}, _: ~p~n", [C({{127,0,0,1}, Port}, 0, 3000)]),
    io:format("negative time: ~p~n", [C({127,0,0,1}, Port, -5)]),
    io:format("bad time: ~p~n", [element(1, C({127,0,0,1}, Port, soon))]),
    io:format("bad ip: ~p~n", [C({127,0,0,1,9}, Port, infinity)]),
    io:format("bad byte: ~p~n", [C({127,0,0,256}, Port, infinity)]),
    io:format("bad port: ~p~n", [C({127,0,0,1}, 70000, infinity)]),
    io:format("ipv6 on inet: ~p~n", [C({0,0,0,0,0,0,0,1}, Port, infinity)]),
    {ok, U} = prim_inet:open(udp, inet, dgram),
    io:format("udp: ~p~n", [prim_inet:connect(U, {127,0,0,1}, Port, infinity)]),
    prim_inet:close(U),
    {ok, Closed} = prim_inet:open(tcp, inet, stream),
    prim_inet:close(Closed),
    io:format("closed port: ~p~n", [catch prim_inet:connect(Closed, {127,0,0,1}, Port, infinity)]).

refused() ->
    {ok, L} = gen_tcp:listen(0, []),
    {ok, Port} = inet:port(L),
    gen_tcp:close(L),
    io:format("refused: ~p ~p~n", [gen_tcp:connect({127,0,0,1}, Port, []), gen_tcp:connect({127,0,0,1}, Port, [], 1000)]).

%% 20 processes connect at once, 25 times each; every connect must come back ok.
concurrent(Port) ->
    Self = self(),
    Ps = [spawn_link(fun() ->
                             Rs = [case gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]) of
                                       {ok, S} -> gen_tcp:close(S), ok;
                                       E -> E
                                   end || _ <- lists:seq(1, 25)],
                             Self ! {self(), lists:usort(Rs)}
                     end) || _ <- lists:seq(1, 20)],
    io:format("concurrent: ~p~n", [lists:usort([receive {P, R} -> R end || P <- Ps])]).

%% A listen socket nobody accepts on with a backlog of 1: once its queue is full, connects wait
%% (the kernel drops their SYNs). One with a timeout times out; one without is ended by closing
%% its port from another process, which answers it {error, closed}.
timeout_and_close() ->
    {ok, L} = gen_tcp:listen(0, [{backlog, 1}, {active, false}]),
    {ok, Port} = inet:port(L),
    Held = [gen_tcp:connect({127,0,0,1}, Port, [], 300) || _ <- lists:seq(1, 4)],
    io:format("backlog full: ~p~n", [[case H of {ok, _} -> ok; E -> E end || H <- Held]]),
    Self = self(),
    Pid = spawn(fun() -> Self ! {res, gen_tcp:connect({127,0,0,1}, Port, [])} end),
    timer:sleep(300),
    Ps = [P || P <- erlang:ports(), erlang:port_info(P, connected) =:= {connected, Pid}],
    io:format("connecting ports: ~p~n", [length(Ps)]),
    [erlang:port_close(P) || P <- Ps],
    receive {res, R} -> io:format("closed while connecting: ~p~n", [R])
    after 5000 -> io:format("closed while connecting: no answer~n")
    end,
    [gen_tcp:close(S) || {ok, S} <- Held],
    gen_tcp:close(L).

%% Accepts with a connection queued (the fast path) and without, with the listen socket's options
%% inherited, an acceptor already waiting keeping its turn, and bad arguments.
accepts() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {nodelay, true}, {keepalive, true}]),
    {ok, Port} = inet:port(L),
    io:format("none queued: ~p~n", [prim_inet:accept(L, 0, [])]),
    {ok, C1} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    timer:sleep(50),
    {ok, A1} = gen_tcp:accept(L, 1000),
    io:format("queued: ~p~n", [inet:getopts(A1, [active, nodelay, keepalive, mode])]),
    ok = gen_tcp:send(C1, <<"one">>),
    io:format("queued recv: ~p~n", [gen_tcp:recv(A1, 0, 1000)]),
    ok = inet:setopts(L, [{active, once}, {nodelay, false}]),
    {ok, C2} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    timer:sleep(50),
    {ok, A2} = prim_inet:accept(L, infinity, []),
    io:format("after setopts: ~p~n", [inet:getopts(A2, [active, nodelay])]),
    ok = inet:setopts(L, [{active, false}]),
    Self = self(),
    W = spawn(fun() ->
                      {ok, S} = gen_tcp:accept(L, 2000),
                      Self ! {waiter, gen_tcp:recv(S, 0, 2000)},
                      receive stop -> gen_tcp:close(S) end
              end),
    timer:sleep(100),
    {ok, C3} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    ok = gen_tcp:send(C3, <<"three">>),
    {ok, C4} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    ok = gen_tcp:send(C4, <<"four">>),
    R = receive {waiter, X} -> X after 3000 -> none end,
    io:format("waiting acceptor first: ~p~n", [R]),
    {ok, A4} = gen_tcp:accept(L, 1000),
    io:format("then: ~p~n", [gen_tcp:recv(A4, 0, 2000)]),
    W ! stop,
    io:format("bad time: ~p~n", [element(1, catch prim_inet:accept(L, soon, []))]),
    io:format("not a list: ~p~n", [element(1, catch prim_inet:accept(L, 0, foo))]),
    io:format("connected socket: ~p~n", [prim_inet:accept(C1, 0, [])]),
    [gen_tcp:close(X) || X <- [C1, C2, C3, C4, A1, A2, A4]],
    gen_tcp:close(L),
    io:format("closed listener: ~p~n", [prim_inet:accept(L, 0, [])]).

accept_loop(L) ->
    case gen_tcp:accept(L) of
        {ok, S} ->
            spawn(fun() -> echo(S) end),
            accept_loop(L);
        _ -> ok
    end.

echo(S) ->
    case gen_tcp:recv(S, 0) of
        {ok, D} -> gen_tcp:send(S, D), echo(S);
        _ -> gen_tcp:close(S)
    end.
