-module(trace_calls).
-export([main/0, double/1, sum/2, fact/1, boom/1, tail/1, loop/0, wrap/1, deep/1]).

%% Call tracing (erlang:trace_pattern/3 with global patterns): call messages, match specs
%% (heads, guards, message, return_trace), arity flag, counts, trace_info for functions.

double(X) -> X * 2.
sum(A, B) -> A + B.
fact(0) -> 1;
fact(N) -> N * ?MODULE:fact(N - 1).
boom(X) -> error({boom, X}).
tail(X) -> ?MODULE:double(X).
priv(0) -> [];
priv(N) when N < 0 -> error(negative);
priv(N) -> [N | priv(N - 1)].
wrap(ok) -> ok;
wrap(X) -> [?MODULE:boom(X)].
deep(0) -> throw(bottom);
deep(N) -> [?MODULE:deep(N - 1)].

loop() ->
    receive
        {run, From, F} -> From ! {done, catch F()}, loop();
        stop -> ok
    end.

main() ->
    T = spawn(fun() -> collect([]) end),
    P = spawn(?MODULE, loop, []),
    ok = run(P, fun() -> ok end), % P is in loop/0 before any pattern is set
    1 = erlang:trace(P, true, [call, {tracer, T}]),
    io:format("count all ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true, [global])]),
    io:format("info ~p~n", [[erlang:trace_info({?MODULE, double, 1}, I) || I <- [traced, match_spec, meta, call_count]]]),
    io:format("info untraced ~p~n", [[erlang:trace_info({lists, reverse, 1}, I) || I <- [traced, match_spec, meta, call_count, meta_match_spec, call_time]]]),
    io:format("info all ~p~n", [erlang:trace_info({?MODULE, double, 1}, all)]),
    io:format("info all untraced ~p~n", [erlang:trace_info({lists, reverse, 1}, all)]),
    run(P, fun() -> ?MODULE:double(21) end),
    run(P, fun() -> double(1) end),               % local call: not traced by a global pattern
    run(P, fun() -> ?MODULE:fact(3) end),
    run(P, fun() -> ?MODULE:tail(5) end),
    dump(T, P, "plain"),
    %% match specs: return_trace, head/guard, message
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [global])]),
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, sum, 2}, [{['$1', '$2'], [{'>', '$1', 10}], [{return_trace}]}], [global])]),
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, double, 1}, [{'_', [], [{message, {{extra, '$_'}}}]}], [global])]),
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, fact, 1}, [{'_', [], [{return_trace}]}], [global])]),
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, boom, 1}, [{'_', [], [{return_trace}]}], [global])]),
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, wrap, 1}, [{'_', [], [{exception_trace}]}], [global])]),
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, deep, 1}, [{'_', [], [{exception_trace}]}], [global])]),
    io:format("ms ~p~n", [erlang:trace_pattern({?MODULE, tail, 1}, [{'_', [], [{message, false}]}], [global])]),
    io:format("info ms ~p~n", [erlang:trace_info({?MODULE, sum, 2}, match_spec)]),
    run(P, fun() -> ?MODULE:sum(1, 2) end),
    run(P, fun() -> ?MODULE:sum(11, 2) end),
    run(P, fun() -> ?MODULE:double(4) end),
    run(P, fun() -> ?MODULE:fact(2) end),
    run(P, fun() -> ?MODULE:boom(7) end),
    run(P, fun() -> ?MODULE:wrap(8) end),
    run(P, fun() -> ?MODULE:wrap(ok) end),
    run(P, fun() -> ?MODULE:deep(2) end),
    run(P, fun() -> ?MODULE:tail(3) end),
    dump(T, P, "match specs"),
    %% arity flag
    erlang:trace(P, true, [arity, {tracer, T}]),
    run(P, fun() -> ?MODULE:sum(1, 2) end),
    run(P, fun() -> ?MODULE:double(1) end),
    erlang:trace(P, false, [arity]),
    dump(T, P, "arity"),
    %% apply/3 and funs of exported functions go through the export
    erlang:trace_pattern({?MODULE, '_', '_'}, true, [global]),
    run(P, fun() -> apply(?MODULE, double, [2]) end),
    F = fun ?MODULE:double/1,
    run(P, fun() -> F(3) end),
    run(P, fun() -> lists:map(fun ?MODULE:double/1, [1]) end),
    dump(T, P, "apply and funs"),
    %% the call flag off: nothing
    erlang:trace(P, false, [call]),
    run(P, fun() -> ?MODULE:double(9) end),
    erlang:trace(P, true, [call, {tracer, T}]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]),
    run(P, fun() -> ?MODULE:double(9) end),
    dump(T, P, "off"),
    %% local patterns: local calls are traced too
    io:format("local count ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true, [local])]),
    io:format("local off ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [local])]),
    io:format("local ~p~n", [erlang:trace_pattern({?MODULE, double, '_'}, true, [local])]),
    io:format("local ~p~n", [erlang:trace_pattern({?MODULE, priv, '_'}, true, [local])]),
    io:format("local info ~p~n", [[erlang:trace_info({?MODULE, F1, A1}, traced) || {F1, A1} <- [{double, 1}, {priv, 1}, {sum, 2}]]]),
    run(P, fun() -> double(1) end),
    run(P, fun() -> ?MODULE:double(2) end),
    run(P, fun() -> priv(3) end),
    run(P, fun() -> priv(0) end),
    dump(T, P, "local"),
    io:format("local ms ~p~n", [erlang:trace_pattern({?MODULE, priv, 1}, [{'_', [], [{exception_trace}]}], [local])]),
    run(P, fun() -> priv(4) end),
    run(P, fun() -> priv(-1) end),
    io:format("global again ~p~n", [erlang:trace_pattern({?MODULE, double, 1}, true, [global])]),
    io:format("global info ~p~n", [erlang:trace_info({?MODULE, double, 1}, traced)]),
    run(P, fun() -> double(5) end),
    run(P, fun() -> ?MODULE:double(6) end),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    run(P, fun() -> priv(5) end),
    dump(T, P, "local ms"),
    %% counts and errors
    io:format("count one ~p~n", [erlang:trace_pattern({?MODULE, double, 1}, true, [])]),
    io:format("count arity ~p~n", [erlang:trace_pattern({?MODULE, double, '_'}, true, [global])]),
    io:format("count missing ~p~n", [erlang:trace_pattern({?MODULE, nope, 0}, true, [global])]),
    io:format("count nomod ~p~n", [erlang:trace_pattern({no_such_module_xyz, '_', '_'}, true, [global])]),
    io:format("count off ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [global])]),
    Bad = [{{?MODULE, '_', 1}, true, [global]}, {{'_', double, '_'}, true, [global]}, {{?MODULE, double, 1}, [bad], [global]},
           {{?MODULE, double, 1}, true, [bogus]}, {not_mfa, true, [global]}, {{?MODULE, double, 1}, true, global}],
    [io:format("bad ~p~n", [catch_it(fun() -> erlang:trace_pattern(A, B, C) end)]) || {A, B, C} <- Bad],
    P ! stop,
    dbg_case(),
    ok.

%% dbg on top (tracer process, dbg:p/2, dbg:tp/4 with its match spec shorthand checks).
dbg_case() ->
    Self = self(),
    {ok, _} = dbg:tracer(process, {fun(M, S) -> S ! {got, M}, S end, Self}),
    {ok, _} = dbg:p(Self, [c]),
    io:format("dbg tp ~p~n", [dbg:tp(?MODULE, sum, 2, [{'_', [], [{return_trace}]}])]),
    io:format("dbg tp x ~p~n", [element(1, dbg:tp(?MODULE, double, 1, x))]),
    3 = ?MODULE:sum(1, 2),
    8 = ?MODULE:double(4),
    [receive {got, M} -> io:format("  ~p~n", [clean(M, Self)]) end || _ <- [1, 2, 3, 4]],
    dbg:stop(),
    ok.

catch_it(F) -> try F() catch C:R -> {C, R} end.

run(P, F) -> P ! {run, self(), F}, receive {done, R} -> R end.

collect(Acc) ->
    receive
        {dump, From} -> From ! {msgs, lists:reverse(Acc)}, collect([]);
        M -> collect([M | Acc])
    end.

dump(T, P, Title) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    T ! {dump, self()},
    receive {msgs, L} ->
            io:format("~s~n", [Title]),
            [io:format("  ~p~n", [clean(M, P)]) || M <- L]
    end.

clean(P, P) -> p;
clean(F, _) when is_function(F) -> fun_;
clean(T, P) when is_tuple(T) -> list_to_tuple([clean(E, P) || E <- tuple_to_list(T)]);
clean(L, P) when is_list(L) -> [clean(E, P) || E <- L];
clean(X, _) -> X.
