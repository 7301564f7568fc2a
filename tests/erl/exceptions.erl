-module(exceptions).
-export([main/0]).
main() ->
    io:format("~p~n", [catch error(boom)]),
    io:format("~p~n", [catch throw(ball)]),
    io:format("~p~n", [catch exit(bye)]),
    io:format("~p~n", [try 1 / 0 catch error:R -> {caught, R} end]),
    io:format("~p~n", [try throw(x) catch C:R2 -> {C, R2} end]),
    io:format("~p~n", [try ok after io:format("after~n") end]),
    io:format("~p~n", [try badmatch_fun(1) catch error:{badmatch, V} -> {badmatch, V} end]),
    io:format("~p~n", [try no_clause(z) catch error:function_clause:St -> hd(St) end]),
    io:format("~p~n", [try element(5, {1}) catch error:badarg:St2 -> hd(St2) end]),
    io:format("~p~n", [try undefined_mod:f() catch error:undef:St3 -> hd(St3) end]),
    io:format("~p~n", [try erlang:error(my, [1, 2]) catch error:my:St4 -> hd(St4) end]),
    io:format("~p~n", [try case_fun(3) catch error:{case_clause, 3} -> case_clause end]),
    io:format("~p~n", [try if_fun(0) catch error:if_clause -> if_clause end]),
    io:format("~p~n", [try raise_again() catch throw:inner -> reraised end]),
    io:format("~p~n", [(catch (fun() -> 1 = 2 end)())]),
    Deep = try deep(10) catch error:deep:St5 -> length(St5) end,
    io:format("~p~n", [Deep]),
    io:format("~p~n", [try atom_to_list(42) catch error:Reason:St6 -> {Reason, element(1, hd(St6)), element(2, hd(St6))} end]),
    ok.
badmatch_fun(X) -> 2 = X.
no_clause(a) -> a.
case_fun(X) -> case X of 1 -> one; 2 -> two end.
if_fun(X) -> if X > 0 -> pos end.
raise_again() -> try throw(inner) catch throw:E:S -> erlang:raise(throw, E, S) end.
deep(0) -> error(deep);
deep(N) -> [deep(N - 1)].
