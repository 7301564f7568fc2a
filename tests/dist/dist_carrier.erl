%% Distribution over an alternative carrier (-proto_dist inet_tls, or gen_tcp_dist from OTP's
%% "How to implement an alternative carrier" example): both use a process as the connection's
%% controller (erlang:dist_ctrl_* BIFs). main/1 runs against a peer node started with peer/0;
%% DistCarrierTest runs it erl->erl (the expectation), jbeam->erl, erl->jbeam and jbeam->jbeam.
-module(dist_carrier).
-export([main/1, peer/0]).
-import(dist_check, [out/2, wait/1]).

%% The peer is dist_check's: processes registered as echo and idle.
peer() -> dist_check:peer().

main([PeerS]) ->
    Peer = list_to_atom(PeerS),
    out(proto_dist, init:get_argument(proto_dist)),
    ok = net_kernel:monitor_nodes(true, #{nodedown_reason => true}),
    out(ping, net_adm:ping(Peer)),
    out(nodeup, receive {nodeup, Peer, _} -> ok after 10000 -> timeout end),
    %% The connection's controller is a process on both sides, and the address says which carrier.
    out(controller, [is_pid(C) || {N, C} <- erlang:system_info(dist_ctrl), N =:= Peer]),
    MyNode = node(),
    out(peer_controller, rpc:call(Peer, erlang, apply,
                                  [fun() -> [is_pid(C) || {N, C} <- erlang:system_info(dist_ctrl), N =:= MyNode] end, []])),
    {ok, Info} = net_kernel:node_info(Peer),
    out(protocol, element(4, proplists:get_value(address, Info))),
    out(node_type, proplists:get_value(type, Info)),
    %% rpc both ways over the one connection.
    out(rpc, rpc:call(Peer, lists, reverse, [[1, 2, 3]])),
    out(rpc_node, rpc:call(Peer, erlang, node, []) =:= Peer),
    out(rpc_back, rpc:call(Peer, rpc, call, [node(), erlang, node, []]) =:= node()),
    out(erpc_error, try erpc:call(Peer, erlang, error, [boom]) catch error:{exception, R0, _} -> R0 end),
    out(self_roundtrip, rpc:call(Peer, erlang, list_to_tuple, [[self()]]) =:= {self()}),
    %% Large messages: a 4 MB binary and a big term each way, and many small ones in order.
    Bin = binary:copy(list_to_binary(lists:seq(0, 255)), 16384),
    {echo, Peer} ! {self(), Bin},
    out(big_binary_echo, receive {echo, B} -> {byte_size(B), B =:= Bin} after 30000 -> timeout end),
    out(big_binary_md5_there, rpc:call(Peer, erlang, md5, [Bin]) =:= erlang:md5(Bin)),
    Back = rpc:call(Peer, binary, copy, [<<"abc">>, 1000000]),
    out(big_binary_from_peer, {byte_size(Back), binary:part(Back, 2999997, 3)}),
    Term = [{I, integer_to_list(I), <<I:32>>} || I <- lists:seq(1, 50000)],
    {echo, Peer} ! {self(), Term},
    out(big_term_echo, receive {echo, T} -> T =:= Term after 30000 -> timeout end),
    [{echo, Peer} ! {self(), I} || I <- lists:seq(1, 2000)],
    out(ordered, collect(1, 2000)),
    %% Processes on the other node: spawn, monitors, links and exit signals across the connection.
    P = spawn(Peer, timer, sleep, [100]),
    out(remote_pid, node(P) =:= Peer),
    R = monitor(process, P),
    out(down, wait(fun({'DOWN', R1, process, P1, Why}) when R1 =:= R, P1 =:= P -> Why; (X) -> {unexpected, X} end)),
    R2 = monitor(process, {idle, Peer}),
    exit(rpc:call(Peer, erlang, whereis, [idle]), kill),
    out(down_name, wait(fun({'DOWN', R1, process, {idle, N}, Why}) when R1 =:= R2 -> {N =:= Peer, Why}; (X) -> {unexpected, X} end)),
    dist_check:links(Peer),
    Me = self(),
    rpc:call(Peer, erlang, spawn, [fun() -> link(Me), exit(from_peer) end]),
    out(peer_linked_exit, wait(fun({'EXIT', F, Why}) when node(F) =:= Peer -> Why; (X) -> {unexpected, X} end)),
    %% The peer monitors a process of this node, which then exits.
    Local = spawn(fun() -> receive go -> exit(local_done) end end),
    rpc:call(Peer, erlang, spawn, [fun() -> M = monitor(process, Local), Me ! monitoring,
                                            receive {'DOWN', M, process, _, Why} -> Me ! {peer_saw, Why} end end]),
    receive monitoring -> Local ! go after 10000 -> ok end,
    out(peer_saw_down, receive {peer_saw, W} -> W after 10000 -> timeout end),
    %% Taking the connection down and up again.
    monitor_node(Peer, true),
    out(disconnect, erlang:disconnect_node(Peer)),
    out(nodedown, receive {nodedown, Peer} -> ok after 10000 -> timeout end),
    out(nodedown_info, receive {nodedown, Peer, I2} -> I2 after 10000 -> timeout end),
    out(nodes_after, nodes()),
    out(ping_again, net_adm:ping(Peer)),
    out(rpc_again, rpc:call(Peer, erlang, node, []) =:= Peer),
    ok.

collect(N, Max) when N > Max -> ok;
collect(N, Max) -> receive {echo, N} -> collect(N + 1, Max); {echo, X} -> {out_of_order, N, X} after 10000 -> {timeout, N} end.
