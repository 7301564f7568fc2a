-module(stacktrace_recursion).
-export([main/0]).

%% Stack traces through body recursion: erts records a return address only when it differs
%% from the one recorded just before, so a recursion shows its function twice (where it failed
%% and one caller), not once per level.

main() ->
    show(catch [clean(M) || M <- [{a, b, {c, d, [4, 3, 2, 1 | zero]}}]]),
    show(catch down(6)),
    show(catch mutual_a(5)),
    show(catch lists:map(fun(X) -> 1 / X end, [3, 2, 1, 0])),
    Self = self(),
    spawn(fun() -> deep_info(4, Self) end),
    receive {trace, T} -> show(T) end,
    ok.

show(X) -> io:format("~p~n", [X]).

clean(T) when is_tuple(T) -> list_to_tuple([clean(E) || E <- tuple_to_list(T)]);
clean(L) when is_list(L) -> [clean(E) || E <- L];
clean(X) -> X.

down(0) -> erlang:error(bottom);
down(N) -> [N | down(N - 1)].

mutual_a(0) -> erlang:error(mutual);
mutual_a(N) -> [a | mutual_b(N - 1)].
mutual_b(N) -> [b | mutual_a(N)].

deep_info(0, To) ->
    {current_stacktrace, T} = process_info(self(), current_stacktrace),
    To ! {trace, T},
    [];
deep_info(N, To) -> [N | deep_info(N - 1, To)].
