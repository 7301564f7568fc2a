-module(dist_restart).
-export([main/0]).
%% net_kernel started, stopped and started again at run time (RabbitMQ's prelaunch does this):
%% stopping makes the node nonode@nohost again, and monitor_nodes sees the node go and come.
main() ->
    Id = os:getpid(),
    A = list_to_atom("drA" ++ Id ++ "@localhost"), B = list_to_atom("drB" ++ Id ++ "@localhost"),
    ok = net_kernel:monitor_nodes(true, [nodedown_reason]),
    io:format("alive ~p~n", [is_alive()]),
    {ok, _} = net_kernel:start([A, shortnames]),
    io:format("started ~p ~p~n", [node() =:= A, is_alive()]),
    io:format("stop ~p~n", [net_kernel:stop()]),
    io:format("stopped ~p ~p~n", [node(), is_alive()]),
    io:format("again ~p~n", [element(1, net_kernel:start([B, shortnames]))]),
    io:format("restarted ~p ~p~n", [node() =:= B, is_alive()]),
    Pid = self(),
    io:format("pid node ~p~n", [node(Pid) =:= B]),
    io:format("stop ~p ~p~n", [net_kernel:stop(), node()]),
    timer:sleep(100),
    io:format("events ~p~n", [flush([])]),
    io:format("stop again ~p~n", [net_kernel:stop()]).
flush(Acc) ->
    receive {N, Node, Info} when N =:= nodeup; N =:= nodedown -> flush([{N, Node =:= node(), Info} | Acc])
    after 0 -> lists:reverse(Acc) end.
