-module(aliases_by_value).
-export([main/0]).
%% Aliases used through equal but distinct references (rebuilt from the external format or from
%% ref_to_list), unalias by a non-owner, reply-once aliases raced by several senders, and
%% monitor aliases after the monitor ends. No refs are printed.
show(X) -> io:format("~p~n", [X]).
got(M) -> receive M -> got after 100 -> none end.
main() ->
    Self = self(),
    A = alias(),
    Ab = binary_to_term(term_to_binary(A)),
    Ab ! via_rebuilt,
    show({rebuilt, got(via_rebuilt)}),
    As = list_to_ref(ref_to_list(A)),
    As ! via_text,
    show({text, got(via_text)}),
    spawn(fun() -> Self ! {other_unalias, unalias(A)} end),
    show(receive {other_unalias, U} -> U end),
    A ! still_active,
    show({after_other, got(still_active)}),
    show({unalias_rebuilt, unalias(Ab), unalias(A)}),
    A ! dead1, Ab ! dead2,
    show({after_unalias, got(dead1), got(dead2)}),
    %% reply: the first message through any copy uses it up.
    R = alias([reply]),
    Rb = binary_to_term(term_to_binary(R)),
    Rb ! first, R ! second,
    show({reply_once, got(first), got(second)}),
    %% Several processes race to reply through one reply-once alias: exactly one message arrives.
    R2 = alias([reply]),
    [spawn(fun() -> R2 ! {race, I} end) || I <- lists:seq(1, 20)],
    show({race, count_race(0)}),
    %% A monitor alias copied out, then demonitored: dead through both.
    P = spawn(fun() -> receive stop -> ok end end),
    M = monitor(process, P, [{alias, demonitor}]),
    Mb = binary_to_term(term_to_binary(M)),
    Mb ! m1,
    show({monitor_alias, got(m1)}),
    demonitor(M, [flush]),
    Mb ! m2, M ! m3,
    show({after_demonitor, got(m2), got(m3)}),
    %% 'DOWN' ends a demonitor alias too.
    M2 = monitor(process, P, [{alias, demonitor}]),
    _ = term_to_binary(M2),
    P ! stop,
    show(receive {'DOWN', M2, process, P, R3} -> {down, R3} after 2000 -> none end),
    M2 ! m4,
    show({after_down, got(m4)}),
    %% gen_server calls from many clients (replies through aliases) all return.
    {ok, S} = gen_server:start(gen_echo, [], []),
    Cs = [spawn(fun() -> Self ! {called, lists:sum([gen_server:call(S, {echo, 1}) || _ <- lists:seq(1, 200)])} end)
          || _ <- lists:seq(1, 10)],
    show(lists:sum([receive {called, N} -> N after 10000 -> 0 end || _ <- Cs])),
    gen_server:stop(S),
    ok.
count_race(N) -> receive {race, _} -> count_race(N + 1) after 200 -> N end.
