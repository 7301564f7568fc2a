%% A node that starts the distribution itself (net_kernel:start/1), connects over the carrier given
%% by -proto_dist, stops it (net_kernel:stop/0 kills every connection's controller) and starts
%% again under another name. DistCarrierTest runs it on erl and jbeam against a peer (dist_check:peer/0).
-module(dist_restart).
-export([main/1]).

main([PeerS, Name1, Name2]) ->
    %% The supervisor and TLS reports of the killed connection are timing-dependent noise here.
    logger:set_primary_config(level, none),
    Peer = list_to_atom(PeerS),
    out(start, element(1, net_kernel:start([list_to_atom(Name1), shortnames]))),
    out(ping, net_adm:ping(Peer)),
    [{_, C}] = erlang:system_info(dist_ctrl),
    M = monitor(process, C),
    out(stop, net_kernel:stop()),
    out(controller_down, receive {'DOWN', M, _, _, R} -> R after 10000 -> timeout end),
    out(after_stop, {node(), nodes(), erlang:system_info(dist_ctrl)}),
    out(start_again, element(1, net_kernel:start([list_to_atom(Name2), shortnames]))),
    out(ping_again, net_adm:ping(Peer)),
    out(controller_again, [is_pid(X) || {_, X} <- erlang:system_info(dist_ctrl)]),
    out(rpc, rpc:call(Peer, erlang, node, []) =:= Peer).

out(K, V) -> io:format("~p: ~p~n", [K, V]).
