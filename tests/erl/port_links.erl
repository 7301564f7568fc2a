-module(port_links).
%% Links between processes and ports: open_port links the opener, port_connect links the new owner
%% (the old one stays linked until it unlinks), unlink/link on ports, process_info(P, links) lists
%% linked ports, exit(Port, kill) with trap_exit, a port closing when its connected process dies.
-export([main/0]).
main() ->
    a(), b(), c(), ok.
a() ->
    {ok, L} = gen_tcp:listen(0, [{active, false}]),
    P = open_port({spawn, "cat"}, []),
    {links, Ls} = process_info(self(), links),
    io:format("~p ~p~n", [lists:member(L, Ls), lists:member(P, Ls)]),
    io:format("~p~n", [[X || {links, X} <- [erlang:port_info(L, links), erlang:port_info(P, links)]] =:= [[self()], [self()]]]),
    unlink(P),
    {links, Ls2} = process_info(self(), links),
    io:format("~p ~p~n", [lists:member(P, Ls2), erlang:port_info(P, links)=:= {links, []}]),
    link(P),
    {links, Ls3} = process_info(self(), links),
    io:format("~p~n", [lists:member(P, Ls3)]),
    process_flag(trap_exit, true),
    port_close(P),
    receive M -> io:format("~p~n", [element(1, M)]) after 200 -> io:format("none~n") end,
    Q = open_port({spawn, "cat"}, []),
    exit(Q, kill),
    receive {'EXIT', Q, R} -> io:format("exit ~p~n", [R]) after 1000 -> io:format("no exit~n") end,
    ok.
b() ->
    {ok, L} = gen_tcp:listen(0, [{active, false}]),
    Self = self(),
    New = spawn(fun() -> receive go -> ok end, {links, Ls} = process_info(self(), links), Self ! {ls, Ls}, receive die -> exit(boom) end end),
    ok = gen_tcp:controlling_process(L, New),
    New ! go,
    receive {ls, Ls} -> io:format("new owner links port: ~p~n", [lists:member(L, Ls)]) end,
    io:format("port links ~p~n", [erlang:port_info(L, links) =:= {links, [New]}]),
    {links, My} = process_info(self(), links),
    io:format("old owner links port: ~p~n", [lists:member(L, My)]),
    New ! die, timer:sleep(100),
    io:format("port after new owner died: ~p~n", [erlang:port_info(L, connected)]),
    P = open_port({spawn, "cat"}, []),
    N2 = spawn(fun() -> receive die -> exit(boom) end end),
    true = erlang:port_connect(P, N2),
    io:format("p links ~p~n", [erlang:port_info(P, links) =:= {links, [self()]}]),
    unlink(P),
    io:format("p links ~p~n", [erlang:port_info(P, links) =:= {links, [N2]}]),
    N2 ! die, timer:sleep(100),
    io:format("port after connected died unlinked: ~p~n", [erlang:port_info(P, connected)]),
    ok.
c() ->
    P3 = open_port({spawn, "cat"}, []),
    N3 = spawn(fun() -> receive die -> exit(boom) end end),
    true = erlang:port_connect(P3, N3),
    timer:sleep(50),
    {links, M1} = erlang:port_info(P3, links),
    io:format("~p ~p~n", [lists:member(self(), M1), lists:member(N3, M1)]),
    {links, NL3} = process_info(N3, links),
    io:format("~p~n", [NL3 =:= [P3]]),
    unlink(P3),
    {links, M2} = erlang:port_info(P3, links),
    io:format("~p ~p~n", [lists:member(self(), M2), lists:member(N3, M2)]),
    ok.
