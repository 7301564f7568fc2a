-module(funs_tail).
%% A fun call in tail position (call_fun / call_fun2 followed by deallocate + return) is a tail
%% call, as erts' loader makes it: loops through funs run in constant stack, and stack traces
%% do not show the caller's frame.
-export([main/0, loop/2, fail/1]).

loop(0, _) -> done;
loop(N, F) -> F(N - 1, F).

fail(X) -> error({fail, X}).

tail_to(F, X) -> F(X).
tail_to2(F) -> F(1, 2).
body_to(F, X) -> {F(X), ok}.
tail_apply(M, F, X) -> M:F(X).

trace(Fun) ->
    try Fun() of V -> {value, V}
    catch C:R:S -> {C, R, [{M, F, A} || {M, F, A, _} <- S, M =/= erl_eval, M =/= init]}
    end.

main() ->
    io:format("~p~n", [loop(3000000, fun funs_tail:loop/2)]),
    G = fun Me(0) -> done2; Me(N) -> Me(N - 1) end,
    io:format("~p~n", [G(3000000)]),
    H = fun(K, Self) -> loop2(K, Self) end,
    io:format("~p~n", [H(3000000, H)]),
    {stack_size, S} = process_info(self(), stack_size),
    io:format("small stack: ~p~n", [S < 100]),
    io:format("~p~n", [trace(fun() -> tail_to(fun funs_tail:fail/1, a) end)]),
    io:format("~p~n", [trace(fun() -> tail_to(fun(X) -> fail(X) end, b) end)]),
    io:format("~p~n", [trace(fun() -> body_to(fun funs_tail:fail/1, c) end)]),
    io:format("~p~n", [trace(fun() -> tail_to(not_a_fun, d) end)]),
    io:format("~p~n", [trace(fun() -> tail_to2(fun(X) -> X end) end)]),
    io:format("~p~n", [trace(fun() -> tail_to(fun no_such_mod_zz:f/1, e) end)]),
    io:format("~p~n", [trace(fun() -> tail_apply(funs_tail, fail, f) end)]),
    ok.

loop2(0, _) -> done3;
loop2(N, S) -> S(N - 1, S).
