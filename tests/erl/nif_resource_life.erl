-module(nif_resource_life).
%% When resource destructors run (native/test_nif_upgrade.c counts them): once the last
%% reference, Erlang or native, is gone. A dead process's resources are destructed (erts: at its
%% exit; jbeam: soon after, see ADR 0018, hence the polling); a resource another process or a
%% native thread still holds is not, and is destructed when that holder lets go, also when the
%% native thread releases it after its owner process died.
-export([main/0]).

p(T) -> io:format("~p~n", [T]).

main() ->
    {module, nif_upgrade} = code:ensure_loaded(nif_upgrade),
    D0 = nif_upgrade:dtor_count(),
    %% 1. a process holding 100 resources exits: all 100 destructed
    run_and_die(fun() -> Objs = [nif_upgrade:new_obj() || _ <- lists:seq(1, 100)], length(Objs) end),
    p({dead_owner, wait_dtors(D0 + 100)}),
    %% 2. the creator dies but hands its resource to a keeper first: not destructed
    Self = self(),
    Keeper = spawn(fun() -> receive {obj, O} -> Self ! kept, receive drop -> ok end, _ = O end end),
    run_and_die(fun() -> Keeper ! {obj, nif_upgrade:new_obj()}, receive after 10 -> ok end end),
    receive kept -> ok end,
    settle(),
    p({kept_by_other_process, nif_upgrade:dtor_count() - D0}),
    MK = monitor(process, Keeper),
    Keeper ! drop,
    receive {'DOWN', MK, _, _, _} -> ok end,
    p({keeper_died, wait_dtors(D0 + 101)}),
    %% 3. a native thread keeps the resource (enif_keep_resource) after its owner process died;
    %% its enif_release_resource, on that thread, runs the destructor
    run_and_die(fun() -> ok = nif_upgrade:hold(nif_upgrade:new_obj(), 3000) end),
    settle(),
    p({held_by_native_thread, nif_upgrade:dtor_count() - D0}),
    p({native_thread_released, wait_dtors(D0 + 102)}),
    %% 4. resources the living caller still uses stay alive through collections
    Mine = [nif_upgrade:new_obj() || _ <- lists:seq(1, 10)],
    run_and_die(fun() -> [nif_upgrade:new_obj() || _ <- lists:seq(1, 5)] end),
    p({others_destructed, wait_dtors(D0 + 107)}),
    erlang:garbage_collect(),
    settle(),
    p({mine_alive, nif_upgrade:dtor_count() - D0, length(Mine)}),
    ok.

run_and_die(F) ->
    {Pid, M} = spawn_monitor(F),
    receive {'DOWN', M, process, Pid, normal} -> ok end.

%% Long enough for a prompt destruction to have happened (jbeam batches for 20 ms, at most one
%% forced collection per second).
settle() -> receive after 1500 -> ok end.

%% The destructor count once it reached N (or what it is after 20 s).
wait_dtors(N) -> wait_dtors(N, 200).
wait_dtors(N, 0) -> {timeout, nif_upgrade:dtor_count(), N};
wait_dtors(N, K) ->
    case nif_upgrade:dtor_count() of
        C when C >= N -> ok;
        _ -> receive after 100 -> wait_dtors(N, K - 1) end
    end.
