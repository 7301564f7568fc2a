%% The running and exiting trace flags: in/out with the function a process resumes in or stops
%% in, out_exited (with 0) after a traced exit; a process never run yet is in its initial call.
%% Each message is sent once the receiver waits again, so every one is a separate scheduling. The
%% processes set their own flags: erts applies flags set by another process through a signal the
%% tracee handles, which schedules it in and out once more.
-module(trace_running).
-export([main/0, loop/1, start/1]).

loop(N) ->
    receive
        {msg, X} -> loop(N + X);
        {stop, From} -> From ! {total, N}
    end.

start(Tracer) ->
    erlang:trace(self(), true, [running, exiting, procs, {tracer, Tracer}]),
    receive go -> loop(0) end.

main() ->
    P = spawn(?MODULE, start, [self()]),
    waiting(P),
    [begin P ! M, waiting(P) end || M <- [go, {msg, 1}, {msg, 2}]],
    P ! {stop, self()},
    receive {total, T} -> io:format("total ~p~n", [T]) end,
    show(P),
    %% running alone: no event for the exit
    Main = self(),
    Q = spawn(fun() -> erlang:trace(self(), true, [running, {tracer, Main}]), receive x -> ok end end),
    waiting(Q),
    Q ! x,
    show(Q),
    %% an exit by exit/1 with exiting
    R = spawn(fun() -> erlang:trace(self(), true, [running, exiting, procs, {tracer, Main}]),
                       receive x -> exit(boom) end end),
    waiting(R),
    R ! x,
    show(R),
    %% killed while it waits: scheduled in to take the signal, then out_exited
    K = spawn(fun() -> erlang:trace(self(), true, [running, exiting, procs, {tracer, Main}]),
                       receive x -> ok end end),
    waiting(K),
    exit(K, kill),
    show(K),
    %% new processes get running from trace(new, ...)
    erlang:trace(new, true, [running]),
    S = spawn(fun() -> receive x -> ok end end),
    erlang:trace(new, false, [running]),
    waiting(S),
    S ! x,
    show(S),
    ok.

waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> erlang:yield(), waiting(P)
    end.

%% The trace messages about P until it is gone.
show(P) ->
    Ref = erlang:monitor(process, P),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    erlang:yield(),
    flush(P).

flush(P) ->
    receive
        M when element(2, M) =:= P -> io:format("  ~p~n", [setelement(2, M, traced)]), flush(P)
    after 100 -> io:format("--~n")
    end.
