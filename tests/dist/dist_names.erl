%% Long node names (-name) and hidden nodes (-hidden), against a peer started by DistributionTest
%% with -name. Prints only facts that do not depend on the generated node names.
-module(dist_names).
-export([main/1]).

out(K, V) -> io:format("~p: ~p~n", [K, V]).

main([PeerS | Flags]) ->
    Peer = list_to_atom(PeerS),
    Hidden = lists:member("hidden", Flags),
    out(hidden_flag, Hidden),
    out(longnames, net_kernel:longnames()),
    out(long_form, lists:suffix("@127.0.0.1", atom_to_list(node()))),
    out(ping, net_adm:ping(Peer)),
    out(visible, nodes() =:= [Peer]),
    out(hidden, nodes(hidden) =:= [Peer]),
    out(connected, nodes(connected) =:= [Peer]),
    out(peer_sees_visible, rpc:call(Peer, erlang, nodes, []) =:= [node()]),
    out(peer_sees_hidden, rpc:call(Peer, erlang, nodes, [hidden]) =:= [node()]),
    out(peer_node_info, rpc:call(Peer, net_kernel, node_info, [node(), type])),
    out(own_node_info, net_kernel:node_info(Peer, type)),
    out(global_sync, global:sync()),
    out(global_names, lists:member(dist_check_echo, global:registered_names())),
    out(erpc, erpc:call(Peer, erlang, '+', [1, 2])),
    out(disconnect, erlang:disconnect_node(Peer)),
    out(after_disconnect, nodes(connected)).
