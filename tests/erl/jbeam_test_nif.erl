-module(jbeam_test_nif).
%% The stub module of native/test_nif.c (libjbeam_test_nif.so, a normal erl_nif library that the
%% real erl loads too), and a differential program for what needs processes: dirty NIFs,
%% enif_schedule_nif moving between normal and dirty schedulers, enif_send from a dirty thread,
%% resource monitors with down callbacks. scheduling/0 is used by NifSchedulingTest (timing,
%% one scheduler).
-on_load(init/0).
-compile({no_auto_import, [self/0]}).
-export([echo/1,priv/0,ints/0,get_ints/1,double_it/1,atom_info/1,existing_atom/1,make_atom/1,tuple_info/1,list_info/1,strings/1,map_ops/2,map_from_arrays/2,bin_ops/1,big_binary/1,iolist_to_bin/1,term_type/1,is_tests/1,compare/2,badarg/0,raise/1,pending/0,make_res/1,get_res/1,res_kept_free/0,dtor_count/0,format/1,sysinfo/0,sched/1,self/0,send_self/1,env_copy/1,threads/0,times/0,add/2,thread_kind/0,dirty_cpu_kind/0,dirty_io_kind/0,hop/1,hop_raise/1,dirty_badarg/1,dirty_sleep/1,dirty_send/1,gate_wait/1,gate_open/0,watch/1,unwatch/1,watch_term/1,same_monitor/2,counter_monitor/1,watcher_dtor_count/0,t2b/1,b2t/2,whereis_pid/1,ioq_test/3,iovec_split/2,pipe_open/0,pipe_select/2,pipe_select_custom/2,pipe_cancel/1,pipe_write/2,pipe_read/1,pipe_stop/1,pipe_stops/0,select_bad/0,hash_phash2/1,hash_internal_stable/2,yield_spin/1,dyn_new/1,dyn_call/4,port_cmd/2,api/2,exc/0,block_ms/1]).
-export([main/0, scheduling/0, local_hot/3]).

init() ->
    Dir = filename:dirname(code:which(?MODULE)),
    erlang:load_nif(filename:join([Dir, "..", "native", "native", "libjbeam_test_nif"]), 42).

echo(_) -> erlang:nif_error(not_loaded).
api(_, _) -> erlang:nif_error(not_loaded).
exc() -> erlang:nif_error(not_loaded).
block_ms(_) -> erlang:nif_error(not_loaded).
priv() -> erlang:nif_error(not_loaded).
ints() -> erlang:nif_error(not_loaded).
get_ints(_) -> erlang:nif_error(not_loaded).
double_it(_) -> erlang:nif_error(not_loaded).
atom_info(_) -> erlang:nif_error(not_loaded).
existing_atom(_) -> erlang:nif_error(not_loaded).
make_atom(_) -> erlang:nif_error(not_loaded).
tuple_info(_) -> erlang:nif_error(not_loaded).
list_info(_) -> erlang:nif_error(not_loaded).
strings(_) -> erlang:nif_error(not_loaded).
map_ops(_,_) -> erlang:nif_error(not_loaded).
map_from_arrays(_,_) -> erlang:nif_error(not_loaded).
bin_ops(_) -> erlang:nif_error(not_loaded).
big_binary(_) -> erlang:nif_error(not_loaded).
iolist_to_bin(_) -> erlang:nif_error(not_loaded).
term_type(_) -> erlang:nif_error(not_loaded).
is_tests(_) -> erlang:nif_error(not_loaded).
compare(_,_) -> erlang:nif_error(not_loaded).
badarg() -> erlang:nif_error(not_loaded).
raise(_) -> erlang:nif_error(not_loaded).
pending() -> erlang:nif_error(not_loaded).
make_res(_) -> erlang:nif_error(not_loaded).
get_res(_) -> erlang:nif_error(not_loaded).
res_kept_free() -> erlang:nif_error(not_loaded).
dtor_count() -> erlang:nif_error(not_loaded).
format(_) -> erlang:nif_error(not_loaded).
sysinfo() -> erlang:nif_error(not_loaded).
sched(_) -> erlang:nif_error(not_loaded).
self() -> erlang:nif_error(not_loaded).
send_self(_) -> erlang:nif_error(not_loaded).
env_copy(_) -> erlang:nif_error(not_loaded).
threads() -> erlang:nif_error(not_loaded).
times() -> erlang:nif_error(not_loaded).
add(_,_) -> erlang:nif_error(not_loaded).
thread_kind() -> erlang:nif_error(not_loaded).
dirty_cpu_kind() -> erlang:nif_error(not_loaded).
dirty_io_kind() -> erlang:nif_error(not_loaded).
hop(_) -> erlang:nif_error(not_loaded).
hop_raise(_) -> erlang:nif_error(not_loaded).
dirty_badarg(_) -> erlang:nif_error(not_loaded).
dirty_sleep(_) -> erlang:nif_error(not_loaded).
dirty_send(_) -> erlang:nif_error(not_loaded).
gate_wait(_) -> erlang:nif_error(not_loaded).
gate_open() -> erlang:nif_error(not_loaded).
watch(_) -> erlang:nif_error(not_loaded).
unwatch(_) -> erlang:nif_error(not_loaded).
watch_term(_) -> erlang:nif_error(not_loaded).
same_monitor(_,_) -> erlang:nif_error(not_loaded).
counter_monitor(_) -> erlang:nif_error(not_loaded).
watcher_dtor_count() -> erlang:nif_error(not_loaded).
t2b(_) -> erlang:nif_error(not_loaded).
b2t(_,_) -> erlang:nif_error(not_loaded).
whereis_pid(_) -> erlang:nif_error(not_loaded).
ioq_test(_,_,_) -> erlang:nif_error(not_loaded).
iovec_split(_,_) -> erlang:nif_error(not_loaded).
pipe_open() -> erlang:nif_error(not_loaded).
pipe_select(_,_) -> erlang:nif_error(not_loaded).
pipe_select_custom(_,_) -> erlang:nif_error(not_loaded).
pipe_cancel(_) -> erlang:nif_error(not_loaded).
pipe_write(_,_) -> erlang:nif_error(not_loaded).
pipe_read(_) -> erlang:nif_error(not_loaded).
pipe_stop(_) -> erlang:nif_error(not_loaded).
pipe_stops() -> erlang:nif_error(not_loaded).
select_bad() -> erlang:nif_error(not_loaded).
hash_phash2(_) -> erlang:nif_error(not_loaded).
hash_internal_stable(_,_) -> erlang:nif_error(not_loaded).
yield_spin(_) -> erlang:nif_error(not_loaded).
dyn_new(_) -> erlang:nif_error(not_loaded).
dyn_call(_,_,_,_) -> erlang:nif_error(not_loaded).
port_cmd(_,_) -> erlang:nif_error(not_loaded).

p(T) -> io:format("~p~n", [T]).

frame(F) ->
    try F() of V -> {value, V}
    catch C:R:St -> {C, R, lists:sublist(St, 2)}
    end.

main() ->
    p({thread_kind(), dirty_cpu_kind(), dirty_io_kind()}),
    p(hop([cpu, io, normal, io, io, cpu, normal, normal])),
    p(hop([])),
    p(frame(fun() -> hop([bogus]) end)),
    p(frame(fun() -> hop([cpu, normal, bogus]) end)),
    p(frame(fun() -> hop([io, io, cpu, bogus]) end)),
    p(catch lists:map(fun(K) -> hop([K, normal]) end, [cpu, io, normal])),
    p(sched(7)),
    p(yield_spin(50)),
    p(frame(fun() -> dirty_badarg(x) end)),
    p(frame(fun() -> badarg() end)),
    p(frame(fun() -> hop_raise({my, reason}) end)),
    Self = erlang:self(),
    p(dirty_send([1, 2]) =:= Self),
    receive M -> p(M) after 2000 -> p(no_message) end,
    p(dirty_sleep(10)),
    %% a dirty NIF blocks until another process opens the gate through a normal NIF
    spawn(fun() -> timer:sleep(20), gate_open() end),
    p(gate_wait(5000)),
    %% eight callers on the dirty IO pool at once
    Ps = [spawn_monitor(fun() -> exit({slept, dirty_sleep(50)}) end) || _ <- lists:seq(1, 8)],
    p([receive {'DOWN', R, process, P, Why} -> Why end || {P, R} <- Ps]),
    %% a dirty caller killed while its NIF runs: the VM goes on, the NIF's result is dropped
    %% (the NIF sleeps far longer than the 20 ms before the kill, so a loaded machine cannot
    %% let it finish first)
    {V, VR} = spawn_monitor(fun() -> dirty_sleep(1000) end),
    timer:sleep(20), exit(V, kill),
    p(receive {'DOWN', VR, process, V, Why2} -> Why2 end),
    monitors(),
    terms(),
    ioq(),
    select(),
    hashes(),
    api(),
    ok.

%% The rest of the API (native/test_nif_api.c): one result per function group.
api() ->
    {Dead, DR} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', DR, process, Dead, _} -> ok end,
    Lib = filename:join([filename:dirname(code:which(?MODULE)), "..", "native", "native", "libjbeam_test_nif"]),
    [p(R) || R <- api(Lib, Dead)],
    p(frame(fun() -> exc() end)),
    ok.

hashes() ->
    Ts = [0, 1, -1, 1 bsl 80, 1.5, atom, <<"bin">>, <<1:7>>, "string", [a | b], {x, y, [1]}, #{k => v, 1 => 2}, []],
    p([{hash_phash2(T), erlang:phash2(T), erlang:phash2(T, 1 bsl 32)} || T <- Ts]),
    p([hash_internal_stable(T, binary_to_term(term_to_binary(T))) || T <- Ts]),
    p(hash_internal_stable(a, b)),
    ok.

select() ->
    R = pipe_open(),
    Ref = make_ref(),
    p(pipe_select(R, Ref)),
    receive {select, R, Ref, _} -> p(too_early) after 50 -> p(not_ready_yet) end,
    p(pipe_write(R, <<"hi">>)),
    receive {select, R2, Ref, What} -> p({R2 =:= R, What}) after 2000 -> p(no_select_message) end,
    p(pipe_read(R)),
    p(pipe_read(R)),
    p(pipe_select_custom(R, {custom, [1, <<"x">>]})),
    p(pipe_write(R, <<"x">>)),
    receive {custom, [1, <<"x">>]} = C -> p(C) after 2000 -> p(no_custom_message) end,
    p(pipe_read(R)),
    p(pipe_select(R, Ref)),
    p(pipe_cancel(R)),
    p(pipe_cancel(R)),
    p(pipe_write(R, <<"y">>)),
    receive {select, _, _, _} -> p(message_after_cancel) after 100 -> p(cancelled) end,
    S0 = pipe_stops(),
    St = pipe_stop(R),
    p(St band 3 =/= 0),
    p(wait_stops(S0 + 1, 100)),
    p(select_bad() band 4),
    ok.

wait_stops(_, 0) -> timeout;
wait_stops(N, K) ->
    case pipe_stops() >= N of true -> stopped; false -> timer:sleep(10), wait_stops(N, K - 1) end.

terms() ->
    Ts = [atom, 42, -1 bsl 70, 3.5, <<"bin">>, "str", [1, [2, {3}] | tl], #{a => 1, <<"k">> => [x]},
          {self(), make_ref()}, fun lists:map/2, <<1:3>>, 'ünï'],
    p([t2b(T) =:= term_to_binary(T) || T <- Ts]),
    p(t2b({tuple, [1, 2.0, <<"x">>], #{k => v}})),
    p([b2t(term_to_binary(T), unsafe) =:= {T, byte_size(term_to_binary(T))} || T <- Ts]),
    p(b2t(<<(term_to_binary({a, b}))/binary, "trailing">>, unsafe)),
    p(b2t(<<131, 100, 0, 3, "zzq">>, safe)),
    p(b2t(<<131, 100, 0, 3, "zzq">>, unsafe)),
    p(b2t(<<131, 255>>, unsafe)),
    p(b2t(term_to_binary(hello, [compressed]), safe)),
    register(nif_whereis_test, erlang:self()),
    p(whereis_pid(nif_whereis_test) =:= erlang:self()),
    unregister(nif_whereis_test),
    p(whereis_pid(nif_whereis_test)),
    p(whereis_pid(no_such_name_here)),
    ok.

ioq() ->
    p(ioq_test([<<"hello">>, <<" ">>, <<"world">>], 2, 4)),
    p(ioq_test([<<"ab">>, <<>>, <<"cd">>], 3, 2)),
    p(ioq_test([], 0, 0)),
    p(ioq_test([<<"abc">>], 9, 0)),
    p(ioq_test([<<"abc">>], 0, 99)),
    B = <<"0123456789">>,
    p(ioq_test([binary:part(B, 2, 5), B], 1, 7)),
    p(ioq_test([<<"a">>, not_binary], 0, 0)),
    p(iovec_split([<<"a">>, <<"bc">>, <<"def">>], 2)),
    p(iovec_split([<<"a">>, <<"bc">>], 5)),
    p(iovec_split([<<"a">> | <<"improper">>], 5)),
    p(catch iovec_split(x, 1)),
    ok.

monitors() ->
    T = spawn(fun() -> receive stop -> ok end end),
    {R, Rc} = watch(T),
    p(Rc),
    {M1, M2} = watch_term(R),
    p({is_reference(M1), M1 =:= M2}),
    p(same_monitor(R, R)),
    T ! stop,
    receive {nif_down, P, Same} -> p({nif_down, P =:= T, Same}) after 2000 -> p(no_down) end,
    p(unwatch(R)),
    T2 = spawn(fun() -> receive stop -> ok end end),
    {R2, 0} = watch(T2),
    p(same_monitor(R, R2) =/= 0),
    p(unwatch(R2)),
    p(unwatch(R2)),
    T2 ! stop,
    receive {nif_down, _, _} -> p(unexpected_down) after 200 -> p(no_down_after_demonitor) end,
    {Dead, DR} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', DR, process, Dead, _} -> ok end,
    p(element(2, watch(Dead))),
    p(counter_monitor(erlang:self())),
    %% several resources watching one process all get their down call
    T3 = spawn(fun() -> receive stop -> ok end end),
    Ws = [watch(T3) || _ <- lists:seq(1, 3)],
    T3 ! stop,
    p(lists:sort([receive {nif_down, P3, S3} -> {P3 =:= T3, S3} after 2000 -> none end || _ <- Ws])),
    ok.

%% For NifSchedulingTest (run with one normal scheduler): exits with
%% {results, Gate, ElapsedMs, Ticks, Kinds, TicksDuringYieldingNif}.
scheduling() ->
    Self = erlang:self(),
    spawn(fun() -> Self ! {gate, gate_wait(5000)} end),
    timer:sleep(50),
    gate_open(),
    Gate = receive {gate, G} -> G end,
    Ticker = spawn(fun() -> tick(0) end),
    T0 = erlang:monotonic_time(millisecond),
    Ps = [spawn_monitor(fun() -> exit({kind, dirty_sleep(300)}) end) || _ <- lists:seq(1, 8)],
    Kinds = [receive {'DOWN', R, process, P, {kind, K}} -> K end || {P, R} <- Ps],
    Elapsed = erlang:monotonic_time(millisecond) - T0,
    Ticker ! {get, erlang:self()},
    Ticks = receive {ticks, N} -> N end,
    %% a yielding NIF (2000 steps of 20 us, enif_schedule_nif with flags 0) lets others run
    Ticker2 = spawn(fun() -> tick(0) end),
    done = yield_spin(2000),
    Ticker2 ! {get, erlang:self()},
    Ticks2 = receive {ticks, N2} -> N2 end,
    exit({results, Gate, Elapsed, Ticks, Kinds, Ticks2}).

tick(N) ->
    receive {get, P} -> P ! {ticks, N}
    after 0 -> erlang:yield(), tick(N + 1)
    end.

%% Local calls to this module's NIF stubs from a loop the bytecode tier compiles (ADR 0038: the
%% compiled call site runs the NIF in place, as for a remote call); nif_jit_calls prints the outcome.
local_hot(N, Acc, Mode) when N > 0 -> local_hot(N - 1, add(N, Acc) band 16#FFFF, Mode);
local_hot(0, Acc, body_raise) -> R = raise({r, Acc}), {R};
local_hot(0, Acc, tail_raise) -> raise(Acc);
local_hot(0, _, body_badarg) -> R = add(a, 1), {R};
local_hot(0, _, tail_badarg) -> badarg();
local_hot(0, Acc, tail_value) -> add(Acc, 1);
local_hot(0, Acc, yield) -> R = yield_spin(5), {R, Acc};
local_hot(0, Acc, hop) -> R = hop([cpu, normal, io]), {R, Acc};
local_hot(0, _Acc, hop_tail) -> hop([io, normal]);
local_hot(0, Acc, big) -> R = add(1 bsl 61, Acc), {R, add(-(1 bsl 62), -Acc)};
local_hot(0, Acc, echo) -> {echo({Acc, [1.5, <<"b">>]}), echo([]), big_binary(3)};
local_hot(0, Acc, four) -> {ioq_test([<<"ab">>, <<"cd">>], 1, 2), Acc}.
