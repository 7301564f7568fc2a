-module(timers_receive).
-export([main/0]).
%% receive ... after: ordering around after 0, timeouts cancelled by a message, stale timeouts
%% that must not end a later receive, many processes with timed receives at once, timer:sleep/tc.
show(X) -> io:format("~p~n", [X]).
main() ->
    %% after 0 looks at what is already queued, in order, without waiting.
    self() ! a, self() ! b,
    show(receive b -> got_b after 0 -> none end),
    show(receive X -> X after 0 -> none end),
    show(receive Y -> Y after 0 -> empty end),
    %% A message sent by another process before we look is seen by after 0 if it arrived.
    Self = self(),
    spawn(fun() -> Self ! from_other end),
    show(receive from_other -> from_other after 1000 -> none end),
    %% A message arriving while the receive waits ends it (the timer is cancelled); a later
    %% receive times out on its own timer. (Timeouts that must not fire are long, so a loaded
    %% machine cannot change the output.)
    spawn(fun() -> timer:sleep(5), Self ! early end),
    show(receive early -> early after 10000 -> late end),
    show(receive never -> never after 30 -> clean_timeout end),
    %% Timeouts fire in order of their length across processes.
    [spawn(fun() -> receive never -> ok after T -> Self ! {done, T} end end) || T <- [600, 200, 400]],
    show([receive {done, T} -> T end || _ <- [1, 2, 3]]),
    %% Selective receive with a timeout skips unmatched messages and keeps them.
    self() ! other1, self() ! other2,
    show(receive wanted -> wanted after 10 -> timed_out end),
    show(receive O1 -> O1 after 0 -> none end),
    show(receive O2 -> O2 after 0 -> none end),
    %% Bad timeouts.
    show(catch receive x -> x after -1 -> ok end),
    show(catch receive x -> x after foo -> ok end),
    show(catch receive x -> x after 1.5 -> ok end),
    self() ! x,
    show(receive x -> x after infinity -> ok end),
    %% Many processes looping over timed receives all finish.
    N = 300,
    [spawn(fun() -> loop(10), Self ! looped end) || _ <- lists:seq(1, N)],
    show(count(looped, N)),
    %% timer:sleep and timer:tc.
    ok = timer:sleep(3),
    {T, ok} = timer:tc(fun() -> timer:sleep(20) end),
    show(T >= 20000),
    ok.
loop(0) -> ok;
loop(K) ->
    receive never -> ok after 1 -> ok end,
    erlang:send_after(1, self(), tick),
    receive tick -> ok end,
    self() ! now,
    receive now -> ok after 5000 -> ok end,
    loop(K - 1).
count(_, 0) -> all;
count(M, N) -> receive M -> count(M, N - 1) after 10000 -> {missing, N} end.
