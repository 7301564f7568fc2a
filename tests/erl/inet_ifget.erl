-module(inet_ifget).
-export([main/0]).
%% inet:ifget/2,3 (INET_REQ_IFGET): per-interface address, netmask, broadcast and destination
%% address, flags, MTU and hardware address, as inet_drv's ioctls answer them.
main() ->
    All = [addr, netmask, flags, mtu, hwaddr, broadaddr, dstaddr],
    io:format("~p~n", [inet:ifget("lo", All)]),
    io:format("~p~n", [inet:ifget(lo, [mtu, addr])]),
    io:format("~p~n", [inet:ifget("no_such_if", [addr, flags])]),
    io:format("~p~n", [catch inet:ifget("lo", [bogus])]),
    {ok, Ifs} = inet:getiflist(),
    [io:format("~s ~p~n", [If, inet:ifget(If, All)]) || If <- Ifs],
    {ok, S} = gen_udp:open(0),
    io:format("~p~n", [inet:ifget(S, "lo", [flags, mtu])]),
    gen_udp:close(S),
    {ok, L} = gen_tcp:listen(0, []),
    io:format("~p~n", [inet:ifget(L, "lo", [addr])]),
    gen_tcp:close(L).
