-module(timers_refs).
-export([main/0]).
%% Timer references used by value: cancel_timer/read_timer with a reference rebuilt from the
%% external format or from ref_to_list (an equal but distinct term), from another process, after
%% the timer fired, and many timers started and cancelled at once. Timeouts of receive and
%% send_after never end early. No refs or times are printed.
show(X) -> io:format("~p~n", [X]).
in_range(V, Lo, Hi) -> is_integer(V) andalso V >= Lo andalso V =< Hi.
main() ->
    R1 = erlang:start_timer(10000, self(), one),
    R1b = binary_to_term(term_to_binary(R1)),
    show({equal, R1b =:= R1}),
    show({read_rebuilt, in_range(erlang:read_timer(R1b), 5000, 10000)}),
    show({cancel_rebuilt, in_range(erlang:cancel_timer(R1b), 5000, 10000)}),
    show({cancel_original_after, erlang:cancel_timer(R1), erlang:read_timer(R1b)}),
    R2 = erlang:send_after(10000, self(), two),
    R2s = list_to_ref(ref_to_list(R2)),
    show({cancel_from_text, in_range(erlang:cancel_timer(R2s), 5000, 10000), erlang:read_timer(R2)}),
    %% Rebuilt after it fired: false, and the message came.
    R3 = erlang:send_after(5, self(), three),
    show(receive three -> got_three after 2000 -> none end),
    R3b = binary_to_term(term_to_binary(R3)),
    show({fired_rebuilt, erlang:read_timer(R3b), erlang:cancel_timer(R3b), erlang:cancel_timer(R3)}),
    %% Rebuilt, then it fires: the message still arrives once.
    R4 = erlang:send_after(20, self(), four),
    _ = term_to_binary(R4),
    show(receive four -> got_four after 2000 -> none end),
    show(receive four -> twice after 50 -> once end),
    %% Another process cancels a timer whose reference it was sent.
    Self = self(),
    R5 = erlang:send_after(10000, self(), five),
    spawn(fun() -> Self ! {cancelled, in_range(erlang:cancel_timer(R5), 5000, 10000)} end),
    show(receive {cancelled, C} -> C after 2000 -> none end),
    show(receive five -> fired after 50 -> not_fired end),
    %% Many timers started and cancelled (long enough that a loaded machine cannot fire one).
    Rs = [erlang:start_timer(20000 + I rem 7, self(), {many, I}) || I <- lists:seq(1, 2000)],
    show(lists:all(fun(R) -> is_integer(erlang:cancel_timer(R)) end, Rs)),
    show(lists:all(fun(R) -> erlang:read_timer(R) =:= false end, Rs)),
    %% Short timeouts never end early (1..4 ms, many processes at once).
    Ps = [spawn(fun() -> Self ! {early, early_count(T, 20)} end) || T <- [1, 2, 3, 4], _ <- lists:seq(1, 50)],
    show(lists:sum([receive {early, N} -> N after 10000 -> 1000 end || _ <- Ps])),
    %% Long receive timeouts (handed to the wheel late by the scheduler thread) fire, not early,
    %% both on an idle node and while busy processes keep every scheduler running.
    show(long_timeouts()),
    Busy = [spawn(fun() -> spin(erlang:monotonic_time(millisecond) + 1500) end) || _ <- lists:seq(1, 4)],
    show(long_timeouts()),
    [exit(B, kill) || B <- Busy],
    ok.
long_timeouts() ->
    Self = self(),
    Ts = [60, 100, 250],
    [spawn(fun() ->
         T0 = erlang:monotonic_time(microsecond),
         receive never -> ok after T -> ok end,
         Self ! {long, T, erlang:monotonic_time(microsecond) - T0 >= T * 1000}
     end) || T <- Ts],
    [receive {long, T, Ok} -> {T, Ok} after 10000 -> {T, missing} end || T <- Ts].
spin(Until) ->
    case erlang:monotonic_time(millisecond) < Until of
        true -> spin(Until);
        false -> ok
    end.
early_count(_, 0) -> 0;
early_count(T, K) ->
    T0 = erlang:monotonic_time(microsecond),
    receive never -> ok after T -> ok end,
    T1 = erlang:monotonic_time(microsecond),
    erlang:send_after(T, self(), tick),
    receive tick -> ok end,
    T2 = erlang:monotonic_time(microsecond),
    (case T1 - T0 < T * 1000 of true -> 1; false -> 0 end)
        + (case T2 - T1 < T * 1000 of true -> 1; false -> 0 end) + early_count(T, K - 1).
