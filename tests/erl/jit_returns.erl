-module(jit_returns).
%% ADR 0050: paths of the bytecode tier's warm-up changes, run cold and again once hot.
%% - A compiled body-recursive function that returns into another module (lists:foldl's fun, a
%%   fun called from lists:map) as well as into itself: the module test before its dispatch.
%% - Small integers either side of ESmall's cache (-256..1023) and of the 64-bit range, made by
%%   + - * bsl in compiled code and compared, printed and encoded (equal values, any object).
-export([main/0, fib/1, edge/2]).

main() ->
    [begin
         io:format("round ~p~n", [Round]),
         returns(),
         edges()
     end || Round <- [cold, hot, hot2]],
    ok.

returns() ->
    Sum = lists:foldl(fun(N, A) -> fib(N) + A end, 0, lists:seq(0, 22)),
    Map = lists:map(fun fib/1, lists:seq(18, 24)),
    Deep = depth(lists:seq(1, 3000), 0),
    io:format("fib sum ~p map ~p depth ~p~n", [Sum, Map, Deep]),
    %% Warm the functions up between rounds (enough calls for the bytecode tier and C2).
    [fib(20) || _ <- lists:seq(1, 40)],
    ok.

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).

%% Body recursion through a list: returns into itself 3000 times, then into returns/0.
depth([], Acc) -> Acc;
depth([H | T], Acc) -> H + depth(T, Acc + 1).

edges() ->
    Points = [-1 bsl 63, -(1 bsl 63) + 1, -(1 bsl 60), -(1 bsl 59) - 1, -(1 bsl 59), -258, -257, -256, -255,
              -1, 0, 1, 1022, 1023, 1024, 1025, 1279, 1280, (1 bsl 59) - 1, 1 bsl 59, (1 bsl 60) - 1,
              (1 bsl 63) - 2, (1 bsl 63) - 1, 1 bsl 63],
    Rs = [edge(P, D) || P <- Points, D <- [-1, 1, 256, -256, 1024]],
    Hot = [edge(P, D) || _ <- lists:seq(1, 300), P <- Points, D <- [-1, 1]],
    io:format("edges ~p ~p~n", [erlang:phash2(Rs), length(Hot)]),
    [io:format("~p~n", [R]) || R <- lists:sublist(Rs, 1, 40)],
    Enc = [{P, binary_to_list(term_to_binary(P + 1))} || P <- Points],
    io:format("enc ~p~n", [erlang:phash2(Enc)]),
    io:format("cmp ~p~n", [[{A, B, A =:= B, A == B, A < B} || A <- [-257, -256, 1023, 1024], B <- [-257 + 1, 1023 + 1, 1024 - 1, -256 - 1]]]),
    ok.

edge(P, D) ->
    S = P + D, M = P - D, X = P * D,
    {S, M, X, S - M, S =:= M + 2 * D, is_integer(S), S band 16#3ff, (P bsl 1) bsr 1}.
