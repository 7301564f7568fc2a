-module(port_fd_names).
-export([main/0]).
%% The ports a node has after boot (erts' forker aside, which jbeam does not have) keep erl's
%% identifiers and names: standard_error's fd port "2/2" and user's "0/1"; the next port opened
%% gets the next number, and an fd port opened by hand is named "In/Out".
main() ->
    Boot = [{P, N} || P <- lists:sort(erlang:ports()), {name, N} <- [erlang:port_info(P, name)], N =/= "forker"],
    io:format("boot ports: ~p~n", [Boot]),
    P = open_port({fd, 0, 2}, [out]),
    io:format("opened: ~p ~p~n", [P, erlang:port_info(P, name)]),
    port_close(P),
    {ok, S} = gen_udp:open(0),
    io:format("udp: ~p ~p~n", [S, erlang:port_info(S, name)]),
    gen_udp:close(S).
