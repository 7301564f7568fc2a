-module(tools_xref_builtin).
%% erlang:is_builtin/3 knows erts' BIFs in every module (lists:reverse/2, maps:get/2, ets:lookup/2 ...),
%% not only erlang's: xref relies on it and reported lists:reverse/2 calls as undefined on jbeam.
%% Also merl/erl_syntax/erl_prettypr from syntax_tools.
-compile([debug_info]).
-export([main/0, uses/1]).
uses(L) -> {lists:reverse(L, []), lists:reverse(L), maps:get(a, #{a => L}), lists:member(x, L), ets:info(t), string:trim(L)}.
main() ->
    io:format("~p~n", [[erlang:is_builtin(M, F, A) || {M, F, A} <- [{lists, reverse, 2}, {lists, reverse, 1}, {lists, member, 2},
        {erlang, length, 1}, {erlang, apply, 3}, {maps, get, 2}, {maps, map, 2}, {binary, match, 2}, {ets, lookup, 2},
        {lists, sum, 1}, {erts_internal, map_next, 3}, {gen_tcp, send, 2}, {erlang, nosuch, 0}, {math, sin, 1},
        {prim_file, get_cwd, 0}, {persistent_term, get, 1}, {re, run, 3}, {unicode, characters_to_binary, 2}]]]),
    io:format("~p~n", [catch erlang:is_builtin(lists, reverse, x)]),
    {ok, _} = xref:start(xr, [{xref_mode, functions}]),
    {ok, _} = xref:add_module(xr, code:which(?MODULE), [{warnings, false}]),
    io:format("~p~n", [xref:analyze(xr, undefined_function_calls)]),
    {ok, Calls} = xref:q(xr, "E | tools_xref_builtin:uses/1"),
    io:format("~p~n", [lists:sort(Calls)]),
    xref:stop(xr),
    Tree = merl:quote("foo(X) -> X + 1."),
    io:format("~s~n", [erl_prettypr:format(Tree)]),
    io:format("~p~n", [erl_syntax:type(Tree)]),
    ok.
