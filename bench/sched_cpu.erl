-module(sched_cpu).
-export([curve/3]).
%% A warm-up curve that survives a loaded machine (ADR 0032): for each of N runs of Mod:run() in
%% one VM, the wall time, the on-CPU time of the scheduler threads, the time they waited for a CPU,
%% and the on-CPU time of every other thread (JIT compilers, GC), all in ms, from Linux's
%% /proc/self/task/*/schedstat (ns resolution, unlike statistics(runtime)). Works on erl too
%% (its scheduler threads are named N_scheduler). Used by bench/curve.
curve(Mod, N, Label) ->
    R = [one(Mod) || _ <- lists:seq(1, N)],
    io:format("~s wall ~w~n~s scpu ~w~n~s swait ~w~n~s other ~w~n",
              [Label, [W || {W,_,_,_} <- R], Label, [C || {_,C,_,_} <- R], Label, [Q || {_,_,Q,_} <- R], Label, [O || {_,_,_,O} <- R]]).
one(Mod) ->
    S0 = snap(), T0 = erlang:monotonic_time(microsecond),
    Mod:run(),
    T1 = erlang:monotonic_time(microsecond), S1 = snap(),
    {SC, SW, OC} = diff(S0, S1),
    {(T1 - T0) div 1000, SC div 1000000, SW div 1000000, OC div 1000000}.
snap() ->
    {ok, Ts} = file:list_dir("/proc/self/task"),
    maps:from_list([{T, read(T)} || T <- Ts]).
read(T) ->
    case file:read_file("/proc/self/task/" ++ T ++ "/schedstat") of
        {ok, B} -> [C, W | _] = [binary_to_integer(X) || X <- binary:split(B, [<<" ">>, <<"\n">>], [global, trim_all])],
                   {ok, N} = file:read_file("/proc/self/task/" ++ T ++ "/comm"),
                   {C, W, sched_thread(N)};
        _ -> {0, 0, false}
    end.
sched_thread(N) -> binary:match(N, [<<"jbeam-schedule">>, <<"1_scheduler">>, <<"2_scheduler">>]) =/= nomatch.
diff(S0, S1) ->
    maps:fold(fun(T, {C1, W1, S}, {SC, SW, OC}) ->
                      {C0, W0, _} = maps:get(T, S0, {0, 0, S}),
                      case S of true -> {SC + C1 - C0, SW + W1 - W0, OC};
                                false -> {SC, SW, OC + C1 - C0} end
              end, {0, 0, 0}, S1).
