-module(code_loaded).
-export([main/0]).

%% OTP's code server knows every loaded module, including those loaded on first call (jbeam
%% loads those itself): code:is_loaded/1, code:which/1, code:all_loaded/0 agree with
%% erlang:loaded/0.

main() ->
    io:format("before ~p~n", [code:is_loaded(sofs)]),
    _ = sofs:set([a]),
    io:format("after ~p~n", [code:is_loaded(sofs)]),
    io:format("which ~p~n", [code:which(sofs)]),
    Loaded = erlang:loaded(),
    All = [M || {M, _} <- code:all_loaded()],
    io:format("all_loaded covers erlang:loaded ~p~n", [Loaded -- All]),
    io:format("ensure_loaded ~p~n", [code:ensure_loaded(sofs)]),
    io:format("not loaded ~p ~p~n", [code:is_loaded(digraph), erlang:module_loaded(digraph)]),
    ok.
