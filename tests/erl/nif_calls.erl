-module(nif_calls).
%% NIFs called from another module (jbeam runs these in place, without entering the stub module):
%% results, and the stack frames of their exceptions in body and tail position, for plain,
%% raising, rescheduled (enif_schedule_nif), yielding and dirty NIFs.
-export([main/0]).

p(T) -> io:format("~p~n", [T]).

frames(F) ->
    try F() of V -> {value, V}
    catch C:R:St -> {C, R, [{M, Fn, A, L} || {M, Fn, A, L} <- lists:sublist(St, 3)]}
    end.

body_badarg() -> R = jbeam_test_nif:badarg(), {R}.
tail_badarg() -> jbeam_test_nif:badarg().
body_raise(X) -> R = jbeam_test_nif:raise(X), {R}.
tail_raise(X) -> jbeam_test_nif:raise(X).
body_hop(L) -> R = jbeam_test_nif:hop(L), {R}.
tail_hop(L) -> jbeam_test_nif:hop(L).
body_dirty(X) -> R = jbeam_test_nif:dirty_badarg(X), {R}.
tail_dirty(X) -> jbeam_test_nif:dirty_badarg(X).
body_hop_raise(X) -> R = jbeam_test_nif:hop_raise(X), {R}.
apply_badarg() -> R = erlang:apply(jbeam_test_nif, badarg, []), {R}.
fun_badarg() -> F = fun jbeam_test_nif:badarg/0, R = F(), {R}.

loop(0, Acc) -> Acc;
loop(N, Acc) -> loop(N - 1, jbeam_test_nif:add(N, Acc) band 16#FFFFFF).

main() ->
    {module, _} = code:ensure_loaded(jbeam_test_nif),
    p(loop(100000, 0)),
    p([jbeam_test_nif:add(A, B) || {A, B} <- [{1, 2}, {-5, 3}, {1 bsl 40, 1}]]),
    p(jbeam_test_nif:echo({a, [1, 2.5, <<"bin">>], #{k => v}, -(1 bsl 70)})),
    p(catch jbeam_test_nif:add(a, 1)),
    %% all-immediate arguments (jbeam's direct path, ADR 0022) with results that are not immediates,
    %% arguments just outside the immediate range, and [] as an argument
    p([jbeam_test_nif:add(A, B) || {A, B} <- [{1 bsl 59 - 1, 1 bsl 59}, {-(1 bsl 59), -(1 bsl 59)},
                                              {1 bsl 61, 1}, {-(1 bsl 61) - 1, 1}, {(1 bsl 61) - 1, 0}]]),
    p(catch jbeam_test_nif:add([], 1)),
    p(frames(fun() -> tail_raise(42) end)),
    p(frames(fun() -> body_raise([]) end)),
    p(frames(fun body_badarg/0)),
    p(frames(fun tail_badarg/0)),
    p(frames(fun() -> body_raise({my, reason}) end)),
    p(frames(fun() -> tail_raise(atom_reason) end)),
    p(frames(fun() -> body_hop([cpu, normal, io]) end)),
    p(frames(fun() -> tail_hop([io, normal]) end)),
    p(frames(fun() -> body_hop([cpu, normal, bogus]) end)),
    p(frames(fun() -> tail_hop([normal, bogus]) end)),
    p(frames(fun() -> body_dirty(1) end)),
    p(frames(fun() -> tail_dirty(2) end)),
    p(frames(fun() -> body_hop_raise(r) end)),
    p(frames(fun apply_badarg/0)),
    p(frames(fun fun_badarg/0)),
    p(jbeam_test_nif:yield_spin(20)),
    %% enif_dynamic_resource_call: by the owning module and the type's name
    D = jbeam_test_nif:dyn_new(10),
    p(jbeam_test_nif:dyn_call(jbeam_test_nif, dyn, D, 5)),
    p(jbeam_test_nif:dyn_call(jbeam_test_nif, dyn, D, 1)),
    p(jbeam_test_nif:dyn_call(jbeam_test_nif, counter, D, 1)),
    p(jbeam_test_nif:dyn_call(other_module, dyn, D, 1)),
    p(jbeam_test_nif:dyn_call(jbeam_test_nif, dyn, jbeam_test_nif:make_res(3), 1)),
    p(jbeam_test_nif:dyn_call(jbeam_test_nif, dyn, not_a_resource, 1)),
    p(jbeam_test_nif:dyn_call("jbeam_test_nif", dyn, D, 1)),
    %% ports: enif_whereis_port, enif_is_port_alive, enif_port_command (to stderr: stdout's
    %% order against io:format's output is not defined)
    Port = open_port({fd, 0, 2}, [out, binary]),
    true = register(nif_err_port, Port),
    p(jbeam_test_nif:port_cmd(nif_err_port, [<<"nif_calls: ">>, "port command from a NIF", $\n])),
    p(jbeam_test_nif:port_cmd(Port, <<"nif_calls: by port\n">>)),
    p(jbeam_test_nif:port_cmd(nif_err_port, {not_iodata})),
    p(jbeam_test_nif:port_cmd(no_such_port_name, <<"x">>)),
    p(jbeam_test_nif:port_cmd(self(), <<"x">>)),
    unregister(nif_err_port),
    port_close(Port),
    p(jbeam_test_nif:port_cmd(Port, <<"closed\n">>)),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), loop(20000, I)} end) || I <- lists:seq(1, 4)],
    p([receive {P, V} -> V end || P <- Pids]),
    ok.
