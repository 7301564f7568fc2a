-module(timers_bifs).
-export([main/0]).
%% erlang:send_after/start_timer/cancel_timer/read_timer: return values, options, badargs, which
%% timers fire and in which order (no refs or times printed; remaining times checked by range).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.
show(X) -> io:format("~p~n", [X]).
main() ->
    show([t(fun() -> is_reference(erlang:send_after(X, self(), m)) end)
          || X <- [0, 1, 4294967295, 4294967296, (1 bsl 43) - 1, (1 bsl 44) - 1, 1 bsl 60, -1, 1.0, foo]]),
    flush_m(),
    show([t(fun() -> is_reference(erlang:send_after(10000, D, m)) end)
          || D <- [self(), foo, {foo, node()}, 1, "x"]]),
    show([t(fun() -> is_reference(erlang:start_timer(X, self(), m)) end) || X <- [10000, -1, bar]]),
    %% cancel_timer options.
    R = erlang:send_after(10000, self(), m),
    show([t(fun() -> erlang:cancel_timer(R, O) end)
          || O <- [[{info, false}], [{async, false}, {info, false}], [bad], {info, true}, [{async, maybe}], [{info, true} | x]]]),
    show(erlang:cancel_timer(R)),
    %% read_timer options; the async answer arrives as a message.
    R2 = erlang:send_after(10000, self(), m),
    show([t(fun() -> erlang:read_timer(R2, O) end) || O <- [[{async, true}], [bad], [{info, false}], []]] =/= []),
    show(receive {read_timer, R2, V} -> {read_async, in_range(V, 5000, 10000)} after 1000 -> none end),
    show(in_range(erlang:read_timer(R2), 5000, 10000)),
    show(in_range(erlang:cancel_timer(R2), 5000, 10000)),
    show({again, erlang:cancel_timer(R2), erlang:read_timer(R2)}),
    %% cancel_timer async with and without info.
    R3 = erlang:start_timer(5000, self(), m),
    show(erlang:cancel_timer(R3, [{async, true}])),
    show(receive {cancel_timer, R3, V3} -> {cancel_async, in_range(V3, 2500, 5000)} after 1000 -> none end),
    R4 = erlang:start_timer(5000, self(), m),
    show(erlang:cancel_timer(R4, [{async, true}, {info, false}])),
    show(receive {cancel_timer, R4, _} -> unexpected after 50 -> no_message end),
    show(erlang:cancel_timer(R4)),
    %% Unknown and bad references.
    show([t(fun() -> erlang:cancel_timer(X) end) || X <- [make_ref(), foo, 1]]),
    show([t(fun() -> erlang:read_timer(X) end) || X <- [make_ref(), foo]]),
    %% A fired timer reads as false; start_timer wraps the message.
    R5 = erlang:start_timer(5, self(), hello),
    show(receive {timeout, R5, hello} -> start_timer_message after 2000 -> none end),
    show({fired, erlang:read_timer(R5), erlang:cancel_timer(R5)}),
    %% Absolute timers.
    Now = erlang:monotonic_time(millisecond),
    show([t(fun() -> is_reference(erlang:send_after(T, self(), abs_m, O)) end)
          || {T, O} <- [{Now + 10, [{abs, true}]}, {Now - 10, [{abs, true}]}, {-5, [{abs, true}]},
                        {10, [{abs, false}]}, {10, []}, {10, [bad]}, {10, foo}, {10, [{abs, 1}]}]]),
    show(count(abs_m, 5, 2000)),
    %% Timers to a dead process are cancelled; to a name, the name is looked up when they fire.
    P = spawn(fun() -> receive _ -> ok end end),
    R6 = erlang:send_after(10000, P, x),
    MRef = monitor(process, P),
    exit(P, kill),
    receive {'DOWN', MRef, process, P, killed} -> ok end,
    timer:sleep(20),
    show({dead_dest, erlang:read_timer(R6), erlang:cancel_timer(R6)}),
    R7 = erlang:send_after(10000, nonexist, x),
    show({name_dest, is_integer(erlang:read_timer(R7))}),
    erlang:cancel_timer(R7),
    register(timers_bifs_target, self()),
    erlang:send_after(5, timers_bifs_target, by_name),
    show(receive by_name -> by_name after 2000 -> none end),
    erlang:send_after(5, no_such_name, lost),
    timer:sleep(30),
    show(alive),
    %% Timers with the same time fire in the order they were started; shorter ones first.
    [erlang:send_after(300, self(), {seq, I}) || I <- lists:seq(1, 10)],
    erlang:send_after(5, self(), {seq, first}),
    show(collect_seq(11)),
    ok.
in_range(V, Lo, Hi) -> is_integer(V) andalso V >= Lo andalso V =< Hi.
flush_m() -> receive m -> flush_m() after 50 -> ok end.
count(_, 0, _) -> all;
count(M, N, T) -> receive M -> count(M, N - 1, T) after T -> {missing, N} end.
collect_seq(0) -> [];
collect_seq(N) -> receive {seq, I} -> [I | collect_seq(N - 1)] after 2000 -> [timeout] end.
