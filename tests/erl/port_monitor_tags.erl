-module(port_monitor_tags).
%% monitor(port, P, [{tag, T}]): the port's 'DOWN' carries the tag; the owner's {'EXIT', P, _}
%% comes before the monitors' messages (port_close and a port killed by an exit signal).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    P = open_port({spawn, "cat"}, []),
    R = monitor(port, P, [{tag, my_tag}]),
    R2 = monitor(port, P),
    port_close(P),
    show(3, P, [R, R2]),
    R3 = monitor(port, P, [{tag, t3}]),
    show(1, P, [R3]),
    Q = open_port({spawn, "cat"}, []),
    R4 = monitor(port, Q, [{tag, {nested, tag}}]),
    exit(Q, kill),
    show(2, Q, [R4]),
    ok.

show(0, _, _) -> ok;
show(N, P, Refs) ->
    receive
        {Tag, Ref, port, P, Reason} -> io:format("~p ~p ~p~n", [Tag, index(Ref, Refs, 1), Reason]);
        {'EXIT', P, Reason} -> io:format("'EXIT' ~p~n", [Reason]);
        Other -> io:format("other ~p~n", [Other])
    after 2000 -> io:format("timeout~n")
    end,
    show(N - 1, P, Refs).

index(R, [R | _], I) -> I;
index(R, [_ | T], I) -> index(R, T, I + 1);
index(_, [], _) -> none.
