-module(jit_fun_tail).
%% Fun calls in tail position between hot (compiled) functions (ADR 0059): two functions calling
%% each other through funs, a function calling itself through a fun, closures with free
%% variables, funs of another module, old and new code of a reloaded module, local call tracing
%% switched on after the functions were compiled, and bad funs reaching a hot call site.
-export([main/0, ext_step/3]).

p(X) -> io:format("~p~n", [X]).

%% even/odd through funs held in a tuple (bench_tailfun's shape)
even(0, _, Acc) -> Acc;
even(N, {_, Odd} = S, Acc) -> Odd(N - 1, S, Acc + 1).
odd(0, _, Acc) -> {odd_end, Acc};
odd(N, {Even, _} = S, Acc) -> Even(N - 1, S, Acc + 2).

%% itself through a fun
self_loop(0, _, Acc) -> Acc;
self_loop(N, {F} = S, Acc) -> F(N - 1, S, Acc + 3).

%% closures with free variables, in tail position
cps(0, K) -> K(done);
cps(N, K) -> cps_step(N, fun(R) -> K({N rem 7, R}) end).
cps_step(N, K) when N rem 1000 =:= 0 -> cps(N - 1, fun(R) -> K(R) end);
cps_step(N, K) -> cps(N - 1, K).

count(0, _Step, Acc) -> Acc;
count(N, Step, Acc) -> Step(N - 1, Step, Acc + N).

ext_step(N, Step, Acc) -> count(N, Step, Acc).

%% a fun tail call after a body call: the frame (the fun in a y register) goes as the call is made
framed(0, _, Acc) -> Acc;
framed(N, F, Acc) -> M = id(N), F(N - 1, F, Acc + M rem 3).
id(X) -> X.

%% a tail call site seeing good funs, then bad ones
call3(F, A) -> F(A, 1, 2).

%% The reloaded module's source, one form per string.
src(V) ->
    Vs = integer_to_list(V),
    ["-module(jft_hcm).", "-export([run/1, funs/0]).",
     "funs() -> {fun ev/3, fun od/3}.",
     "run(N) -> ev(N, funs(), 0).",
     "ev(0, _, A) -> {" ++ Vs ++ ", A}; ev(N, {_, O} = S, A) -> O(N - 1, S, A + " ++ Vs ++ ").",
     "od(0, _, A) -> {" ++ Vs ++ ", odd, A}; od(N, {E, _} = S, A) -> E(N - 1, S, A + 1)."].

load(V) ->
    Forms = [begin {ok, Ts, _} = erl_scan:string(F), {ok, Form} = erl_parse:parse_form(Ts), Form end || F <- src(V)],
    {ok, jft_hcm, Bin} = compile:forms(Forms, [binary]),
    code:load_binary(jft_hcm, "jft_hcm.erl", Bin).

traced(N) ->
    S = {fun even/3, fun odd/3},
    Self = self(),
    P = spawn(fun() -> receive go -> ok end, Self ! {result, even(N, S, 0)} end),
    erlang:trace(P, true, [call]),
    erlang:trace_pattern({?MODULE, odd, 3}, true, [local]),
    P ! go,
    R = receive {result, X} -> X after 10000 -> timeout end,
    Calls = collect(0),
    erlang:trace_pattern({?MODULE, odd, 3}, false, [local]),
    {R, Calls}.

collect(N) ->
    receive {trace, _, call, {?MODULE, odd, _}} -> collect(N + 1)
    after 200 -> N
    end.

main() ->
    S = {fun even/3, fun odd/3},
    p([even(N, S, 0) || N <- [0, 1, 2, 3, 10]]),
    %% hot: compiled after a few thousand calls, then run compiled for the rest
    p(even(3000000, S, 0)),
    p(even(3000001, S, 0)),
    p(self_loop(3000000, {fun self_loop/3}, 0)),
    p(cps(200000, fun(R) -> element(1, R) end)),
    p(framed(500000, fun framed/3, 0)),
    p(framed(500000, fun(N, F, A) -> framed(N, F, A + 1) end, 0)),
    %% the same call sites with funs of another module (jit_fun_tail's export through lists)
    p(count(100000, fun ?MODULE:ext_step/3, 0)),
    p(count(100000, fun(N, St, A) -> ext_step(N, St, A) end, 0)),
    %% bad funs at a hot tail call site
    G = fun(A, B, C) -> A + B + C end,
    p([call3(G, I) || I <- lists:seq(1, 5000), I rem 1000 =:= 0]),
    p(catch call3(fun(A, B) -> A + B end, 1)),
    p(catch call3(not_a_fun, 1)),
    p(catch call3(fun lists:nonexistent_zz/3, 1)),
    p(catch call3(fun erlang:'+'/2, 1)),
    %% reloading: funs of the old code keep running the old code, new funs the new
    p(load(1)),
    p(jft_hcm:run(1000000)),
    Old = jft_hcm:funs(),
    p(load(2)),
    p(jft_hcm:run(1000001)),
    {OldEven, _} = Old,
    p(OldEven(1000000, Old, 0)),
    p(jft_hcm:run(10)),
    %% local call tracing switched on after even/odd were compiled: every call through a fun is seen
    p(traced(20)),
    p(traced(2001)),
    p(even(300000, S, 0)),
    ok.
