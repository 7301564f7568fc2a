-module(nif_jit_calls).
%% NIF calls made from functions the bytecode tier has compiled: jbeam calls the NIF straight from
%% the compiled call site while the export still leads to it (ADR 0031). Each function below loops
%% a few thousand times first (so it is compiled by then) and makes the last call from compiled
%% code: results, exceptions and their frames in body and tail position, a yielding and a
%% rescheduled NIF, non-immediate arguments, and a new version of the NIF's module loaded while a
%% compiled loop keeps calling it.
-export([main/0]).

p(T) -> io:format("~p~n", [T]).

frames(F) ->
    try F() of V -> {value, V}
    catch C:R:St -> {C, R, [{M, Fn, A, L} || {M, Fn, A, L} <- lists:sublist(St, 3)]}
    end.

hot(N, Acc, Mode) when N > 0 -> hot(N - 1, jbeam_test_nif:add(N, Acc) band 16#FFFF, Mode);
hot(0, Acc, body_raise) -> R = jbeam_test_nif:raise({r, Acc}), {R};
hot(0, Acc, tail_raise) -> jbeam_test_nif:raise(Acc);
hot(0, _, body_badarg) -> R = jbeam_test_nif:add(a, 1), {R};
hot(0, _, tail_badarg) -> jbeam_test_nif:badarg();
hot(0, Acc, tail_value) -> jbeam_test_nif:add(Acc, 1);
hot(0, Acc, yield) -> R = jbeam_test_nif:yield_spin(5), {R, Acc};
hot(0, Acc, hop) -> R = jbeam_test_nif:hop([cpu, normal, io]), {R, Acc};
hot(0, _Acc, hop_tail) -> jbeam_test_nif:hop([io, normal]);
hot(0, Acc, big) -> R = jbeam_test_nif:add(1 bsl 61, Acc), {R, jbeam_test_nif:add(-(1 bsl 62), -Acc)};
hot(0, Acc, echo) -> {jbeam_test_nif:echo({Acc, [1.5, <<"b">>]}), jbeam_test_nif:echo([])}.

%% Calls nif_upgrade:gen/0 from a compiled loop; halfway through, a new version of nif_upgrade
%% is loaded (its library is upgraded): the same call site then reaches the new version's NIF.
gens(0, Acc) -> lists:reverse(Acc);
gens(N, Acc) ->
    N =:= 3000 andalso p(code:load_file(nif_upgrade)),
    G = nif_upgrade:gen(),
    gens(N - 1, case Acc of [G | _] -> Acc; _ -> [G | Acc] end).

main() ->
    {module, _} = code:ensure_loaded(jbeam_test_nif),
    [p(frames(fun() -> hot(6000, 0, M) end))
     || M <- [body_raise, tail_raise, body_badarg, tail_badarg, tail_value, yield, hop, hop_tail, big, echo]],
    %% the same compiled function again, now entered compiled from the start
    p(frames(fun() -> hot(100, 7, tail_raise) end)),
    p(frames(fun() -> hot(100, 7, big) end)),
    %% local calls to the NIF stubs of the NIF's own module (ADR 0038), compiled the same way
    [p(frames(fun() -> jbeam_test_nif:local_hot(6000, 0, M) end))
     || M <- [body_raise, tail_raise, body_badarg, tail_badarg, tail_value, yield, hop, hop_tail, big, echo, four]],
    p(frames(fun() -> jbeam_test_nif:local_hot(100, 7, tail_raise) end)),
    %% local call tracing of a NIF reaches calls made by the (compiled) module's own code
    p(local_trace()),
    {module, _} = code:ensure_loaded(nif_upgrade),
    p(gens(6000, [])),
    p(code:purge(nif_upgrade)),
    ok.

local_trace() ->
    Self = self(),
    Tracer = spawn(fun() -> collect(Self, []) end),
    erlang:trace(self(), true, [call, {tracer, Tracer}]),
    1 = erlang:trace_pattern({jbeam_test_nif, add, 2}, true, [local]),
    R = jbeam_test_nif:local_hot(3, 5, tail_value),
    erlang:trace_pattern({jbeam_test_nif, add, 2}, false, [local]),
    erlang:trace(self(), false, [call]),
    Tracer ! {done, self()},
    receive {calls, Calls} -> {R, Calls} after 5000 -> {R, timeout} end.

collect(Owner, Acc) ->
    receive
        {trace, Owner, call, MFA} -> collect(Owner, [MFA | Acc]);
        {done, Owner} -> Owner ! {calls, lists:reverse(Acc)}
    end.
