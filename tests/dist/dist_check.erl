%% Distribution differential program: main/1 runs against a peer node (started with peer/0) and
%% prints what it sees; DistributionTest runs it erl→erl, jbeam→erl and erl→jbeam and compares.
-module(dist_check).
-export([main/1, peer/0]).
%% Shared with dist_carrier (the same checks over other carriers).
-export([out/2, wait/1, links/1]).

peer() ->
    register(echo, spawn(fun echo/0)),
    register(idle, spawn(fun() -> receive stop -> ok end end)),
    yes = global:register_name(dist_check_echo, whereis(echo)),
    io:format("ready~n").

echo() ->
    receive
        {From, M} -> From ! {echo, M}, echo();
        _ -> echo()
    end.

out(K, V) -> io:format("~p: ~p~n", [K, V]).

wait(Pattern) -> receive M -> Pattern(M) after 5000 -> timeout end.

main([PeerS]) ->
    Peer = list_to_atom(PeerS),
    out(alive, is_alive()),
    ok = net_kernel:monitor_nodes(true),
    ok = net_kernel:monitor_nodes(true, #{node_type => all, nodedown_reason => true}),
    out(ping, net_adm:ping(Peer)),
    out(nodeup, receive {nodeup, Peer} -> ok after 5000 -> timeout end),
    out(nodeup_info, receive {nodeup, Peer, I1} -> I1 after 5000 -> timeout end),
    out(global_sync, global:sync()),
    out(global, node(global:whereis_name(dist_check_echo)) =:= Peer),
    global:send(dist_check_echo, {self(), via_global}),
    out(global_send, receive {echo, via_global} -> ok after 5000 -> timeout end),
    out(global_register, global:register_name(dist_check_main, self())),
    out(global_seen_there, rpc:call(Peer, global, whereis_name, [dist_check_main]) =:= self()),
    %% Pids of two nodes sort as erts sorts them (serial, number, then node): global's lockers rely on it.
    EchoPid0 = rpc:call(Peer, erlang, whereis, [echo]),
    out(pid_order, lists:sort([EchoPid0, self()]) =:= rpc:call(Peer, lists, sort, [[EchoPid0, self()]])),
    out(nodes, nodes() =:= [Peer]),
    {echo, Peer} ! {self(), hello},
    out(echo, receive {echo, M} -> M after 5000 -> timeout end),
    EchoPid = rpc:call(Peer, erlang, whereis, [echo]),
    out(remote_pid, {is_pid(EchoPid), node(EchoPid) =:= Peer, EchoPid =/= self()}),
    EchoPid ! {self(), {big, lists:seq(1, 1000), <<7:80000>>, #{a => 1.5, "k" => [x | y]}, {1 bsl 100, -3}}},
    out(echo_big, receive {echo, {big, L, B, Mp, T}} -> {length(L), byte_size(B), Mp, T} after 5000 -> timeout end),
    out(seq_trace, seq_trace_remote(Peer, EchoPid)),
    out(rpc, rpc:call(Peer, lists, reverse, [[1, 2, 3]])),
    out(rpc_node, rpc:call(Peer, erlang, node, []) =:= Peer),
    out(rpc_undef, element(1, element(2, rpc:call(Peer, nomod, nofun, [])))),
    out(erpc_error, try erpc:call(Peer, erlang, error, [boom]) catch error:{exception, R0, _} -> R0 end),
    out(erpc_throw, catch erpc:call(Peer, erlang, throw, [ball])),
    out(self_roundtrip, rpc:call(Peer, erlang, list_to_tuple, [[self()]]) =:= {self()}),
    Ref0 = make_ref(),
    out(ref_roundtrip, rpc:call(Peer, erlang, hd, [[Ref0]]) =:= Ref0),
    rpc:call(Peer, io, format, ["printed by the peer through our group leader~n"]),
    P = spawn(Peer, timer, sleep, [100]),
    R = monitor(process, P),
    out(down, wait(fun({'DOWN', R1, process, P1, Why}) when R1 =:= R, P1 =:= P -> Why; (X) -> {unexpected, X} end)),
    R2 = monitor(process, {idle, Peer}),
    exit(rpc:call(Peer, erlang, whereis, [idle]), kill),
    out(down_name, wait(fun({'DOWN', R1, process, Obj, Why}) when R1 =:= R2 -> {element(1, Obj), element(2, Obj) =:= Peer, Why}; (X) -> {unexpected, X} end)),
    R3 = monitor(process, {nosuch, Peer}),
    out(down_noproc, wait(fun({'DOWN', R1, process, Obj, Why}) when R1 =:= R3 -> {element(1, Obj), element(2, Obj) =:= Peer, Why}; (X) -> {unexpected, X} end)),
    R4 = monitor(process, EchoPid),
    out(demonitor, demonitor(R4, [flush, info])),
    links(Peer),
    L3 = spawn_link(Peer, timer, sleep, [infinity]),
    unlink(L3),
    exit(L3, kill),
    out(unlinked, receive {'EXIT', L3, _} -> got after 300 -> none end),
    Me = self(),
    rpc:call(Peer, erlang, spawn, [fun() -> link(Me), exit(from_peer) end]),
    out(peer_linked_exit, wait(fun({'EXIT', F, Why}) when node(F) =:= Peer -> Why; (X) -> {unexpected, X} end)),
    monitor_node(Peer, true),
    out(disconnect, erlang:disconnect_node(Peer)),
    out(nodedown, receive {nodedown, Peer} -> ok after 5000 -> timeout end),
    out(nodedown2, receive {nodedown, Peer} -> ok after 5000 -> timeout end),
    out(nodedown_info, receive {nodedown, Peer, I2} -> I2 after 5000 -> timeout end),
    out(nodes_after, nodes()),
    out(ping_again, net_adm:ping(Peer)),
    out(nonode, net_adm:ping(list_to_atom("nosuchnode@" ++ tl(lists:dropwhile(fun(C) -> C =/= $@ end, PeerS))))),
    ok.

%% Links across the connection (the caller then traps exits): a linked remote process exits, and
%% an exit signal to a linked remote process comes back as its exit.
links(Peer) ->
    process_flag(trap_exit, true),
    L1 = spawn_link(Peer, erlang, exit, [bye]),
    out(link_exit, wait(fun({'EXIT', F, Why}) when F =:= L1 -> Why; (X) -> {unexpected, X} end)),
    L2 = spawn_link(Peer, timer, sleep, [infinity]),
    exit(L2, stop_it),
    out(exit2, wait(fun({'EXIT', F, Why}) when F =:= L2 -> Why; (X) -> {unexpected, X} end)).

%% A sequential trace token across the connection (SEND_TT, REG_SEND_TT): it goes to the peer's
%% echo and comes back on its reply; the events are this node's (the peer has no tracer).
seq_trace_remote(Peer, EchoPid) ->
    Me = self(),
    Tracer = spawn(fun() -> st_collect([]) end),
    false = seq_trace:set_system_tracer(Tracer),
    seq_trace:set_token(serial, {0, 0}),
    seq_trace:set_token(label, dist),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    EchoPid ! {Me, by_pid},
    R1 = receive {echo, by_pid} -> seq_trace:get_token() after 5000 -> timeout end,
    {echo, Peer} ! {Me, by_name},
    R2 = receive {echo, by_name} -> seq_trace:get_token() after 5000 -> timeout end,
    seq_trace:set_token([]),
    Tracer ! {dump, self()},
    Es = receive {events, E} -> E after 5000 -> timeout end,
    seq_trace:set_system_tracer(false),
    st_anon({R1, R2, Es}).

st_collect(Acc) ->
    receive {dump, From} -> From ! {events, lists:reverse(Acc)}; E -> st_collect([E | Acc]) end.

st_anon(P) when is_pid(P) -> case node(P) =:= node() of true -> local_pid; false -> remote_pid end;
st_anon(A) when is_atom(A), A =:= node() -> this_node;
st_anon(A) when is_atom(A) -> case lists:member($@, atom_to_list(A)) of true -> other_node; false -> A end;
st_anon(T) when is_tuple(T) -> list_to_tuple([st_anon(X) || X <- tuple_to_list(T)]);
st_anon(L) when is_list(L) -> [st_anon(X) || X <- L];
st_anon(X) -> X.
