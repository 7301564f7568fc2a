-module(bench_nif_call).
%% group: nif
-export([run/0]).
%% Per-call NIF overhead: 1M calls of a trivial NIF (add/2 of native/test_nif.c, a normal
%% erl_nif library both VMs load; its stub module is built into target/erl-tests).
run() ->
    code:add_patha("target/erl-tests"),
    {module, _} = code:ensure_loaded(jbeam_test_nif),
    loop(1000000, 0).
loop(0, Acc) -> Acc;
loop(N, Acc) -> loop(N - 1, jbeam_test_nif:add(N, Acc) band 16#FFFFFF).
