-module(stress_signals).
%% Concurrency stress with deterministic output: many senders into one receiver (nothing lost,
%% per-sender order kept), a spawn/exit storm with monitors, and a busy-looping process killed.
-export([main/0]).
main() ->
    Self = self(),
    Senders = 8, Msgs = 20000,
    [spawn(fun() -> [Self ! {S, I} || I <- lists:seq(1, Msgs)] end) || S <- lists:seq(1, Senders)],
    Last = collect(Senders * Msgs, #{}),
    io:format("received ~p, in order: ~p~n", [Senders * Msgs, lists:all(fun({_, N}) -> N =:= Msgs end, maps:to_list(Last))]),
    Refs = [element(2, spawn_monitor(fun() -> exit({done, N}) end)) || N <- lists:seq(1, 2000)],
    Downs = [receive {'DOWN', R, process, _, {done, _}} -> ok end || R <- Refs],
    io:format("monitors fired: ~p~n", [length(Downs)]),
    Busy = spawn(fun Loop() -> Loop() end),
    timer:sleep(20),
    MRef = monitor(process, Busy),
    exit(Busy, kill),
    receive {'DOWN', MRef, process, Busy, Why} -> io:format("busy loop killed: ~p~n", [Why]) end,
    process_flag(trap_exit, true),
    Linked = [spawn_link(fun() -> receive never -> ok after 10 -> exit(normal) end end) || _ <- lists:seq(1, 500)],
    Exits = [receive {'EXIT', P, normal} -> ok end || P <- Linked],
    io:format("linked exits: ~p~n", [length(Exits)]),
    ok.
collect(0, Acc) -> Acc;
collect(N, Acc) ->
    receive {S, I} ->
        Prev = maps:get(S, Acc, 0),
        case I =:= Prev + 1 of
            true -> collect(N - 1, Acc#{S => I});
            false -> io:format("out of order ~p ~p ~p~n", [S, Prev, I]), collect(N - 1, Acc#{S => I})
        end
    end.
