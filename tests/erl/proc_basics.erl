-module(proc_basics).
-export([main/0]).
main() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, N, N * N} end) || N <- lists:seq(1, 10)],
    Results = lists:sort([receive {done, N, Sq} -> {N, Sq} end || _ <- Pids]),
    io:format("~p~n", [Results]),
    Ring = ring(100, self()),
    Ring ! {token, 0},
    receive {token, Count} -> io:format("ring ~p~n", [Count]) end,
    process_flag(trap_exit, true),
    L = spawn_link(fun() -> exit(crashed) end),
    receive {'EXIT', L, Why} -> io:format("exit ~p~n", [Why]) end,
    {M, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, process, M, R} -> io:format("down ~p~n", [R]) end,
    register(me, self()),
    me ! hello,
    receive hello -> io:format("registered send ok~n") end,
    io:format("~p~n", [catch nobody ! x]),
    receive after 10 -> io:format("timeout ok~n") end,
    erlang:send_after(5, self(), tick),
    receive tick -> io:format("send_after ok~n") end,
    Self ! b, Self ! a,
    receive a -> ok end,
    receive b -> io:format("selective receive ok~n") end,
    put(key, value),
    io:format("~p~n", [get(key)]),
    K = spawn(fun() -> receive after infinity -> ok end end),
    %% wait for the kill to land (a 10 ms sleep was not always enough on a loaded machine)
    KR = monitor(process, K),
    exit(K, kill),
    receive {'DOWN', KR, process, K, killed} -> ok end,
    io:format("~p~n", [is_process_alive(K)]),
    ok.
ring(0, Next) -> Next;
ring(N, Next) ->
    ring(N - 1, spawn(fun() -> receive {token, C} -> Next ! {token, C + 1} end end)).
