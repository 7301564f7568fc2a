-module(code_purge).
%% Hot code loading: processes running old code (suspended in it, or with a return address into
%% it) are seen by check_process_code, code:soft_purge/1 refuses while they exist, code:purge/1
%% kills them; delete_module/purge_module return values and badargs as erts.
-export([main/0]).

src(V) ->
    "-module(cp_hcm).\n-export([v/0, loop/0, deep/1]).\nv() -> " ++ integer_to_list(V) ++ ".\n"
    "loop() -> receive {From, v} -> From ! {v, v()}, loop(); {From, ext} -> From ! {v, cp_hcm:v()}, cp_hcm:loop(); stop -> ok end.\n"
    "deep(F) -> R = F(), {R}.\n".

forms(S) ->
    {ok, Toks, _} = erl_scan:string(S),
    split(Toks, [], []).
split([], [], Acc) -> lists:reverse(Acc);
split([{dot, _} = D | T], Cur, Acc) -> {ok, F} = erl_parse:parse_form(lists:reverse([D | Cur])), split(T, [], [F | Acc]);
split([X | T], Cur, Acc) -> split(T, [X | Cur], Acc).

load(V) ->
    {ok, cp_hcm, Bin} = compile:forms(forms(src(V)), [binary]),
    code:load_binary(cp_hcm, "cp_hcm.erl", Bin).

ask(P, W) -> P ! {self(), W}, receive {v, X} -> X after 5000 -> timeout end.

p(X) -> io:format("~p~n", [X]).

main() ->
    p(load(1)),
    P = spawn(cp_hcm, loop, []),
    p(ask(P, v)),
    p(load(2)),
    p({cp_hcm:v(), ask(P, v)}),
    p(erlang:check_process_code(P, cp_hcm)),
    p(erlang:check_process_code(self(), cp_hcm)),
    p(code:soft_purge(cp_hcm)),
    p(ask(P, ext)),
    p(erlang:check_process_code(P, cp_hcm)),
    p(code:soft_purge(cp_hcm)),
    %% a return address into old code on the stack
    Self = self(),
    D = spawn(fun() -> cp_hcm:deep(fun() -> receive go -> Self ! {deep, ok} end end) end),
    timer:sleep(100),
    p(load(3)),
    p(erlang:check_process_code(D, cp_hcm)),
    p(code:soft_purge(cp_hcm)),
    MD = monitor(process, D),
    p(code:purge(cp_hcm)),
    receive {'DOWN', MD, process, D, R1} -> p({down, R1}) after 5000 -> p(no_down) end,
    p(load(4)),
    Q = spawn(cp_hcm, loop, []),
    p(load(5)),
    p(erlang:check_process_code(Q, cp_hcm)),
    M = monitor(process, Q),
    p(code:purge(cp_hcm)),
    receive {'DOWN', M, process, Q, R} -> p({down, R}) after 5000 -> p(no_down) end,
    p(code:delete(cp_hcm)),
    p(catch cp_hcm:v()),
    p({code:is_loaded(cp_hcm), erlang:module_loaded(cp_hcm)}),
    p(code:purge(cp_hcm)),
    p(code:delete(cp_hcm)),
    p(is_process_alive(P)),
    %% the BIFs under code: (erts also logs "Module ~w must be purged before deleting", timestamped,
    %% at its own pace; the logger is quietened so that only the results are compared)
    logger:set_primary_config(level, none),
    B = element(3, compile:forms([{attribute, 1, module, cp_hcx}], [binary])),
    Try = fun(F) -> try F() catch error:E -> {error, E} end end,
    p(Try(fun() -> erlang:delete_module(cp_hcx) end)),
    {module, _} = code:load_binary(cp_hcx, "x", B),
    {module, _} = code:load_binary(cp_hcx, "x", B),
    p([Try(fun() -> erlang:delete_module(cp_hcx) end), Try(fun() -> erlang:purge_module(cp_hcx) end),
       Try(fun() -> erlang:purge_module(cp_hcx) end), Try(fun() -> erlang:delete_module(cp_hcx) end),
       Try(fun() -> erlang:delete_module(cp_hcx) end), Try(fun() -> erlang:purge_module(cp_hcx) end),
       Try(fun() -> erlang:delete_module(cp_hcx) end), erlang:check_old_code(cp_hcx),
       Try(fun() -> erlang:delete_module(123) end), Try(fun() -> erlang:purge_module(nosuch_zz) end),
       Try(fun() -> erlang:check_process_code(self(), 123) end), Try(fun() -> erlang:check_process_code(foo, cp_hcx) end),
       Try(fun() -> erlang:check_process_code(self(), cp_hcx, [bogus]) end),
       Try(fun() -> erlang:check_process_code(self(), cp_hcx, [{allow_gc, true}]) end)]),
    P ! stop,
    ok.
