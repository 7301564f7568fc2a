-module(jit_big_function).
%% A function far bigger than jbeam's background-compile size (ADR 0008 addendum): called often
%% enough to be compiled, on the background jit thread, while this process keeps calling it
%% interpreted; every result must be the same before, during and after the switch.
-export([main/0]).
main() ->
    Clauses = lists:flatten([io_lib:format("big(~p, X) -> {~p, X + ~p, [X | ~p], <<X:8, ~p:16>>};~n", [I, I, I, I, I]) || I <- lists:seq(1, 600)]),
    Src = "-module(jit_big_gen).\n-export([big/2, loop/2]).\n" ++ Clauses ++ "big(N, X) -> {other, N, X}.\n"
        "loop(0, Acc) -> Acc;\nloop(N, Acc) -> loop(N - 1, erlang:phash2(big(N rem 620, N band 255)) bxor Acc).\n",
    {ok, Toks, _} = erl_scan:string(Src),
    Forms = split(Toks, [], []),
    {ok, jit_big_gen, Bin} = compile:forms(Forms, []),
    {module, jit_big_gen} = code:load_binary(jit_big_gen, "jit_big_gen.erl", Bin),
    Sums = [begin timer:sleep(20), jit_big_gen:loop(3000, 0) end || _ <- lists:seq(1, 12)],
    io:format("~p~n", [Sums]),
    io:format("~p ~p~n", [jit_big_gen:big(600, 3), jit_big_gen:big(601, 3)]).
split([{dot, _} = D | T], Cur, Acc) ->
    {ok, F} = erl_parse:parse_form(lists:reverse([D | Cur])),
    split(T, [], [F | Acc]);
split([Tok | T], Cur, Acc) -> split(T, [Tok | Cur], Acc);
split([], [], Acc) -> lists:reverse(Acc).
