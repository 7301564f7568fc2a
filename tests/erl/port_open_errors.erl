-module(port_open_errors).
%% open_port option errors: badopt for a bad or unknown option (a bad {cd, _} is a plain badarg).
-export([main/0]).
main() ->
    [io:format("~p ~p~n", [O, try open_port({spawn, "true"}, [O]) of P -> port_close(P), ok catch error:R:S -> [{_,_,_,I}|_] = S, {R, proplists:get_value(error_info, I)} end])
     || O <- [foo, {foo, 1}, "str", {line, 0}, {line, x}, {packet, 3}, {args, x}, {cd, 1}, {env, x}, {env, [{"A", 1}]}, {arg0, 1}, {parallelism, x}, {busy_limits_port, x}]],
    io:format("~p~n", [try open_port({spawn, "true"}, x) catch error:R:S -> [{_,_,_,I}|_] = S, {R, proplists:get_value(error_info, I)} end]),

    ok.
