-module(sched_handoff).
-export([main/0]).
%% Scheduler hand-offs (ADR 0003): a process woken by one that keeps computing must still run
%% soon (the wake-up is deferred to the end of the waker's slice, not to the end of its work);
%% call/reply pairs, many at once, lose no wake-ups; a message from another thread (a timer)
%% reaches a process whose scheduler is idle.
main() ->
    Self = self(),
    %% A wakes B, then computes for many slices: B answers first.
    B = spawn(fun() -> receive go -> Self ! b_done end end),
    spawn(fun() -> B ! go, burn(3000000), Self ! a_done end),
    io:format("first ~p~n", [receive M1 -> M1 end]),
    io:format("second ~p~n", [receive M2 -> M2 end]),
    %% Ping-pong pairs, and gen_server-like calls with a monitor, from many clients at once.
    Pairs = [spawn_pair(Self, 2000) || _ <- lists:seq(1, 8)],
    io:format("pairs ~p~n", [lists:sum([receive {pair, P, N} -> N end || P <- Pairs])]),
    Server = spawn(fun server/0),
    Clients = [spawn(fun() -> Self ! {client, self(), calls(Server, 1000, 0)} end) || _ <- lists:seq(1, 6)],
    io:format("calls ~p~n", [[receive {client, C, S} -> S end || C <- Clients]]),
    %% Timers fire into idle schedulers, in deadline order. The gaps are 100 ms so that a loaded
    %% machine descheduling this process while it starts them cannot reorder the deadlines
    %% (10 ms gaps failed once at load average 19).
    [erlang:send_after(T, Self, {tick, T}) || T <- [300, 100, 200]],
    io:format("ticks ~p~n", [[receive {tick, T} -> T end || _ <- [1, 2, 3]]]),
    io:format("after ~p~n", [receive nothing -> no after 15 -> timeout end]).

burn(0) -> ok;
burn(N) -> burn(N - 1).

spawn_pair(Parent, N) ->
    Echo = spawn(fun Loop() -> receive {From, X} -> From ! {self(), X}, Loop(); stop -> ok end end),
    spawn(fun() -> Parent ! {pair, self(), ping(Echo, N, 0)}, Echo ! stop end).

ping(_, 0, Acc) -> Acc;
ping(Echo, N, Acc) -> Echo ! {self(), 1}, receive {Echo, X} -> ping(Echo, N - 1, Acc + X) end.

server() -> receive {call, From, Ref, X} -> From ! {Ref, X * 2}, server() end.

calls(_, 0, Sum) -> Sum;
calls(S, N, Sum) ->
    Ref = erlang:monitor(process, S),
    S ! {call, self(), Ref, N},
    receive {Ref, R} -> erlang:demonitor(Ref, [flush]), calls(S, N - 1, Sum + R) end.
