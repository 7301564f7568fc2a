%% fprof:apply/3 with a trace file, fprof:profile/1 and fprof:analyse/1 (fprof's tracing runs on a
%% port as tracer: trace_file_drv, and the call, return_to, running and procs events). The analysis
%% is compared by its call counts, callers and callees, never by its times; the pseudo functions
%% garbage_collect and suspend (GC and scheduling, which differ between runs and VMs) are left out.
-module(fprof_analysis).
-export([main/0, work/1, child/1]).

work(N) ->
    L = build(N, []),
    S = lists:sum(L),
    R = lists:reverse(L),
    self() ! {sum, S},
    receive {sum, X} -> ok end,
    Self = self(),
    Child = spawn(?MODULE, child, [Self]),
    C = receive {Child, V} -> V end,
    {X, length(R), fib(12), tail(20, 0), C, library()}.

%% OTP library code (io_lib's formatting, ets, maps, string): its calls are counted the same.
library() ->
    S = lists:flatten(io_lib:format("~p ~s ~w", [{a, [1, 2]}, "str", 3.5])),
    E = ets:new(t, []),
    ets:insert(E, {a, 1}),
    [{a, V}] = ets:lookup(E, a),
    ets:delete(E),
    M = maps:from_list([{K, K * 2} || K <- [3, 1, 2]]),
    {S, V, maps:get(3, M), string:tokens("a b c", " ")}.

%% A spawned process: traced too (set_on_spawn), its functions listed under it.
child(Parent) ->
    Parent ! {self(), lists:map(fun child_sq/1, [1, 2, 3, 4, 5])}.

child_sq(X) -> X * X.

build(0, Acc) -> Acc;
build(N, Acc) -> build(N - 1, [sq(N) | Acc]).

sq(X) -> X * X.

fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).

tail(0, Acc) -> Acc;
tail(N, Acc) -> tail(N - 1, Acc + helper(N)).

helper(N) -> catch thrower(N).

thrower(N) when N rem 5 =:= 0 -> throw(N);
thrower(N) -> N.

main() ->
    Dir = "/tmp/jbeam_fprof_analysis_" ++ os:getpid(),
    ok = filelib:ensure_dir(Dir ++ "/"),
    Trace = Dir ++ "/fprof.trace",
    Out = Dir ++ "/fprof.analysis",
    %% Once first, so that every module it uses is loaded: erts loads a module through
    %% error_handler, whose traced calls jbeam's own loading does not make.
    _ = work(30),
    Result = fprof:apply(fun ?MODULE:work/1, [30], [{file, Trace}]),
    io:format("result ~p~n", [Result]),
    %% profile/1 prints progress dots whose number depends on the trace's size: they go to a sink.
    GL = group_leader(),
    group_leader(spawn(fun sink/0), self()),
    Profiled = fprof:profile([{file, Trace}]),
    group_leader(GL, self()),
    io:format("profile ~p~n", [Profiled]),
    io:format("analyse ~p~n", [fprof:analyse([{dest, Out}, {cols, 120}])]),
    {ok, Terms} = file:consult(Out),
    Entries = [E || {_, {F, _, _, _}, _} = E <- Terms, real(F)],
    io:format("~p functions~n", [length(Entries)]),
    %% by name, then by callers and callees (ties: a function listed under two processes)
    [io:format("~p ~p~n    callers ~p~n    calls ~p~n", [F, Cnt, counts(Callers), counts(Called)])
     || {Callers, {F, Cnt, _, _}, Called} <- lists:sort(fun by_name/2, Entries)],
    fprof:stop(),
    [file:delete(F) || F <- [Trace, Out]],
    file:del_dir(Dir),
    ok.

by_name({CA, {A, NA, _, _}, DA}, {CB, {B, NB, _, _}, DB}) ->
    {A, NA, counts(CA), counts(DA)} =< {B, NB, counts(CB), counts(DB)}.

real(F) -> F =/= garbage_collect andalso F =/= suspend andalso F =/= undefined.

counts(L) -> lists:sort([{F, C} || {F, C, _, _} <- L, real(F)]).

sink() ->
    receive
        {io_request, From, Ref, _} -> From ! {io_reply, Ref, ok}, sink();
        _ -> sink()
    end.
