-module(register_raise_errors).
-export([main/0]).
c(F) -> try F() catch error:R:St -> {R, [I || {erlang, _, _, I} <- St]} end.
main() ->
    P = spawn(fun() -> receive _ -> ok end end),
    register(n1, self()),
    io:format("name taken by other: ~p~n", [c(fun() -> register(n1, P) end)]),
    io:format("self already named: ~p~n", [c(fun() -> register(n2, self()) end)]),
    io:format("same again: ~p~n", [c(fun() -> register(n1, self()) end)]),
    D = spawn(fun() -> ok end), timer:sleep(20),
    io:format("dead: ~p~n", [c(fun() -> register(n3, D) end)]),
    io:format("undefined: ~p~n", [c(fun() -> register(undefined, P) end)]),
    io:format("not atom: ~p~n", [c(fun() -> register("x", P) end)]),
    io:format("not pid: ~p~n", [c(fun() -> register(n4, foo) end)]),
    io:format("raise bad class: ~p~n", [catch erlang:raise(wrong_class, r, [])]),
    io:format("raise bad st: ~p~n", [catch erlang:raise(error, r, not_a_list)]),
    io:format("raise bad st2: ~p~n", [catch erlang:raise(error, r, [bad_frame])]),
    io:format("raise ok: ~p~n", [catch erlang:raise(error, r, [{m, f, 1, []}])]),
    ok.
