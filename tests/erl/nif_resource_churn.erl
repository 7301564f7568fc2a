-module(nif_resource_churn).
%% Many short-lived resource terms and a few long-lived ones (ADR 0048: jbeam keeps each
%% resource term in a reusable slot and releases unreachable ones in batches). A worker makes
%% 20000 resources, hands 50 to a keeper and exits: the other 19950 are destructed, the 50 stay
%% valid (each still reads its own value, echoes as itself, survives a term_to_binary round trip)
%% while more resources come and go, and are destructed once the keeper exits too.
-export([main/0]).

p(T) -> io:format("~p~n", [T]).

main() ->
    {module, _} = code:ensure_loaded(jbeam_test_nif),
    D0 = jbeam_test_nif:dtor_count(),
    Self = self(),
    Keeper = spawn(fun() -> keeper(Self) end),
    run_and_die(fun() ->
        Kept = [jbeam_test_nif:make_res(K) || K <- lists:seq(1, 50)],
        Sum = lists:sum([jbeam_test_nif:get_res(jbeam_test_nif:make_res(K)) || K <- lists:seq(1, 19950)]),
        Keeper ! {kept, Kept},
        Self ! {sum, Sum}
    end),
    receive {sum, S} -> p({temporaries, S}) end,
    p({worker_died, wait_dtors(D0 + 19950)}),
    Keeper ! check,
    receive {checked, C1} -> p({kept_after_worker, C1}) end,
    %% more churn in another process that dies: slots are reused, the kept ones are unaffected
    run_and_die(fun() -> [jbeam_test_nif:make_res(-K) || K <- lists:seq(2, 5001)] end),
    p({second_worker_died, wait_dtors(D0 + 24950)}),
    Keeper ! check,
    receive {checked, C2} -> p({kept_after_churn, C2}) end,
    p({not_destructed_yet, jbeam_test_nif:dtor_count() - D0}),
    MK = monitor(process, Keeper),
    Keeper ! stop,
    receive {'DOWN', MK, _, _, _} -> ok end,
    p({keeper_died, wait_dtors(D0 + 25000)}),
    ok.

keeper(Parent) ->
    receive {kept, Kept} -> keeper(Parent, Kept) end.
keeper(Parent, Kept) ->
    receive
        check ->
            Values = [jbeam_test_nif:get_res(R) || R <- Kept],
            Same = lists:all(fun(R) -> jbeam_test_nif:echo(R) =:= R end, Kept),
            Trip = [jbeam_test_nif:get_res(binary_to_term(term_to_binary(R))) || R <- Kept],
            Parent ! {checked, {Values =:= lists:seq(1, 50), Same, Trip =:= Values, length(lists:usort(Kept))}},
            keeper(Parent, Kept);
        stop -> ok
    end.

run_and_die(F) ->
    {Pid, M} = spawn_monitor(F),
    receive {'DOWN', M, process, Pid, normal} -> ok end.

%% The destructor count once it reached N (or what it is after 20 s).
wait_dtors(N) -> wait_dtors(N, 200).
wait_dtors(N, 0) -> {timeout, jbeam_test_nif:dtor_count(), N};
wait_dtors(N, K) ->
    case jbeam_test_nif:dtor_count() of
        C when C >= N -> ok;
        _ -> receive after 100 -> wait_dtors(N, K - 1) end
    end.
