-module(bench_timers).
%% group: concurrency
-export([run/0]).
%% Timer-heavy receives: 2000 processes, each 20 rounds of a short `receive after`, a
%% send_after it waits for, and a start_timer it cancels (most timers are cancelled, as in OTP).
run() ->
    N = 2000, R = 20, Self = self(),
    [spawn(fun() -> loop(R), Self ! done end) || _ <- lists:seq(1, N)],
    [receive done -> ok end || _ <- lists:seq(1, N)],
    ok.
loop(0) -> ok;
loop(K) ->
    receive never -> ok after 1 -> ok end,
    erlang:send_after(1, self(), tick),
    receive tick -> ok end,
    T = erlang:start_timer(10000, self(), late),
    erlang:cancel_timer(T),
    %% A receive whose timeout is cancelled by a message arriving first.
    self() ! now,
    receive now -> ok after 5000 -> ok end,
    loop(K - 1).
