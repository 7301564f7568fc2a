-module(interp_fastpaths).
%% Exercises the interpreter's specialised opcodes and superinstructions (ADR 0002):
%% comparisons against constants, exact equality with atoms/small integers, list and tuple
%% matching, float registers, bitwise fast paths, and the errors/stack traces around them.
-export([main/0, pair/2]).

lt(X) when X < 2 -> lt; lt(_) -> ge.
ge(X) when X >= 10 -> ge; ge(_) -> lt.
klt(X) when 3 < X -> gt; klt(_) -> le.
eqa(X) when X =:= ok -> yes; eqa(_) -> no.
nea(X) when X =/= ok -> yes; nea(_) -> no.
eqi(X) when X =:= 7 -> yes; eqi(_) -> no.
nei(X) when X =/= -7 -> yes; nei(_) -> no.
big(X) when X =:= 4294967296 -> yes; big(_) -> no.
xx(A, B) when A < B -> lt; xx(A, B) when A >= B -> ge.

len([]) -> 0;
len([_ | T]) -> 1 + len(T).
sum([H | T], Acc) -> sum(T, Acc + H);
sum([], Acc) -> Acc;
sum(Other, Acc) -> {improper, Other, Acc}.

tup({a, X}) -> {a1, X};
tup({a, X, Y}) -> {a2, X, Y};
tup({b, _, _, _} = T) -> {b, tuple_size(T)};
tup(T) when is_tuple(T) -> {other, tuple_size(T)};
tup(_) -> not_tuple.

fl(X, Y) -> X * 0.5 + Y / 3.0 - X * Y.
bits(A, B) -> {A band B, A bor B, A bxor B, A bsr 3, catch A bsr B}.
divs(A, B) -> {c(fun() -> A rem B end), c(fun() -> A div B end), c(fun() -> A bsl B end), A bsl 3, A rem 7, A == B, A /= B}.
c(F) -> try F() catch C:R -> {C, R} end.

sel(X) ->
    case X of
        [C | _] when C =:= $a -> starts_a;
        [C | _] when C =:= 98 -> starts_b;
        [_ | _] -> other_list;
        _ -> not_list
    end.

swapmove(A, B, C) -> f3(C, A, B).
f3(A, B, C) -> [A, B, C].

deep(0) -> [];
deep(N) -> [N | deep(N - 1)].

err(X) -> hd(X).

%% move x->y + move x->x + call (fused): the caller's frame and line in the callee's stack trace.
pair(A, B) -> X = boom(B), {A, X}.
boom(B) -> hd(B).

main() ->
    Vals = [0, 1, 1.5, 2, 2.0, 3, 3.5, 10, 10.0, -1, 1 bsl 70, -(1 bsl 70), a, "s", {t}, <<>>, 7, -7, 7.0, ok, error],
    io:format("~p~n", [[{lt(V), ge(V), klt(V), eqa(V), nea(V), eqi(V), nei(V), big(V)} || V <- Vals]]),
    io:format("~p~n", [big(4294967296)]),
    io:format("~p~n", [[xx(A, B) || A <- Vals, B <- [1, 2.0, a, 1 bsl 65]]]),
    io:format("~p~n", [{len(lists:seq(1, 1000)), sum(lists:seq(1, 100), 0), sum([1, 2 | 3], 0)}]),
    io:format("~p~n", [[tup(T) || T <- [{a, 1}, {a, 1, 2}, {b, 1, 2, 3}, {c}, {}, {a}, [a], 3]]]),
    io:format("~p~n", [[fl(X, Y) || X <- [1, 2.5, -3], Y <- [0.5, 4]]]),
    io:format("~p~n", [catch fl(1.0e308, 1.0e308)]),
    io:format("~p~n", [catch fl(a, 1.0)]),
    io:format("~p~n", [[bits(A, B) || A <- [0, 255, -256, 1 bsl 64, -(1 bsl 64)], B <- [1, 15, -3, 64, 1 bsl 64]]]),
    io:format("~p~n", [catch bits(1.0, 2)]),
    Ds = [0, 1, -1, 7, -7, 255, 1 bsl 62, -(1 bsl 62), 16#7FFFFFFFFFFFFFFF, -16#8000000000000000, 1 bsl 64, 3.0],
    io:format("~p~n", [[divs(A, B) || A <- Ds -- [3.0], B <- Ds ++ [-3, 60, 62, 63, 64, -64]]]),
    io:format("~p~n", [[c(fun() -> divs(a, 1) end), c(fun() -> divs(1.5, 2) end)]]),
    try divs(a, 1) catch error:R3:St3 -> io:format("~p ~p~n", [R3, lists:sublist(St3, 2)]) end,
    io:format("~p~n", [[sel(X) || X <- ["abc", "bcd", "cde", [], x]]]),
    io:format("~p~n", [swapmove(1, 2, 3)]),
    io:format("~p~n", [length(deep(200000))]),
    io:format("~p~n", [pair(1, [2])]),
    try pair(1, []) catch error:R4:St4 -> io:format("~p ~p~n", [R4, lists:sublist(St4, 3)]) end,
    try err([]) catch error:R:St -> io:format("~p ~p~n", [R, lists:sublist(St, 2)]) end,
    try bits(a, 1) catch error:R2:St2 -> io:format("~p ~p~n", [R2, lists:sublist(St2, 2)]) end,
    ok.
