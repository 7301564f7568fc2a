-module(inet_exit_on_close).
-export([main/0]).
%% A socket with exit_on_close (the default) whose peer closes while it is active: the owner gets
%% {tcp_closed, S} and the port is gone, but even a trapping owner gets no {'EXIT', S, normal}
%% (erts drops normal exits of driver_exit). jbeam delivered one, which then sat in the mailbox.
main() ->
    process_flag(trap_exit, true),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    ok = inet:setopts(S, [{active, true}]),
    ok = gen_tcp:close(C),
    io:format("~p~n", [receive {tcp_closed, S} -> closed after 2000 -> timeout end]),
    timer:sleep(50),
    io:format("port gone ~p~n", [erlang:port_info(S) =:= undefined]),
    io:format("exits ~p~n", [[R || {'EXIT', X, R} <- element(2, process_info(self(), messages)), X =:= S]]),
    %% gen_tcp:close of one's own socket leaves no message either (prim_inet flushes it).
    {ok, C2} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S2} = gen_tcp:accept(L),
    ok = gen_tcp:close(S2),
    ok = gen_tcp:close(C2),
    timer:sleep(20),
    io:format("left ~p~n", [length(element(2, process_info(self(), messages)))]),
    gen_tcp:close(L).
