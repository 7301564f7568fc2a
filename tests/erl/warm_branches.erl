-module(warm_branches).
%% ADR 0053: paths whose first use after the bytecode tier (and C2) compiled a function used to
%% throw the compiled code away; each runs cold, then hot, then the rare way again.
%% - sends to local references: aliases (active, reply-once, deactivated), plain references,
%%   timer references, and the same through erlang:send/2,3;
%% - tail calls between compiled functions (trampolines) entered at several nestings, with a
%%   callee that waits in receive (LEAVE through the trampoline) and one that is not compiled;
%% - =:= / =/= against integer literals ending counting loops, with non-integer operands.
-export([main/0, hop/2, down/2]).

main() ->
    [aliases(R) || R <- [cold, hot, hot2]],
    [io:format("tail ~p ~p~n", [R, tail(R)]) || R <- [cold, hot, again]],
    [io:format("loops ~p ~p~n", [R, loops()]) || R <- [cold, hot, again]],
    ok.

%% ---- sends to local references ----
aliases(Round) ->
    A = alias(),
    A ! {a, 1},
    erlang:send(A, {a, 2}),
    erlang:send(A, {a, 3}, [noconnect]),
    R1 = flush([]),
    true = unalias(A),
    A ! {a, dropped},
    R2 = flush([]),
    Once = alias([reply]),
    Once ! {once, 1},
    Once ! {once, dropped},
    R3 = flush([]),
    Plain = make_ref(),
    Plain ! {plain, dropped},
    T = erlang:start_timer(60000, self(), never),
    T ! {timer_ref, dropped},
    erlang:cancel_timer(T),
    R4 = flush([]),
    %% a reply through a monitor alias (as gen:call), from another process; then the alias is gone
    Server = spawn(fun() -> receive {go, To} -> To ! {reply, To =/= x} end end),
    M = monitor(process, Server, [{alias, reply_demonitor}]),
    Server ! {go, M},
    R5 = receive {reply, V} -> V end,
    M ! {late, dropped},
    R6 = flush([]),
    n(Round, 2000),
    io:format("aliases ~p ~p ~p ~p ~p ~p ~p~n", [Round, R1, R2, R3, R4, R5, R6]).

%% many alias round trips, so the send path gets hot (compiled) between rounds
n(_, 0) -> ok;
n(R, K) ->
    A = alias([reply]),
    A ! K,
    receive K -> ok end,
    n(R, K - 1).

flush(Acc) ->
    receive M -> flush([M | Acc]) after 0 -> lists:reverse(Acc) end.

%% ---- tail calls between compiled functions ----
tail(Round) ->
    Hot = [hop(K, 40) || K <- lists:seq(1, 3000)],
    %% a tail-called function that waits in receive: the trampoline sees LEAVE
    Self = self(),
    P = spawn(fun() -> Self ! {res, waiter(3)} end),
    [P ! {tick, I} || I <- lists:seq(1, 3)],
    W = receive {res, X} -> X end,
    %% nested: a direct call whose callee runs a trampoline of its own
    N = lists:sum([nested(K) || K <- lists:seq(1, 500)]),
    {Round, lists:sum(Hot), W, N, ?MODULE:down(5, [])}.

hop(Acc, 0) -> Acc;
hop(Acc, K) when K rem 2 =:= 0 -> hip(Acc + 1, K - 1);
hop(Acc, K) -> ?MODULE:hop(Acc + 2, K - 1).
hip(Acc, K) -> hop(Acc * 1, K).

waiter(0) -> done;
waiter(K) -> receive {tick, _} -> wait_more(K - 1) end.
wait_more(K) -> waiter(K).

nested(K) -> 1 + hop(K, 6).

%% a remote tail call into a function that stays interpreted (apply on a fun), then back
down(0, Acc) -> lists:reverse(Acc);
down(K, Acc) -> (fun(A) -> ?MODULE:down(K - 1, [A | Acc]) end)(K).

%% ---- integer literal tests ending loops ----
loops() ->
    {count(100000, 0), count_to(0, 50000), neg(-3, 0), mixed([0, 0.0, 1, a, 2, 2.0, -1, 7], 0),
     lists:sum([count(K, 0) || K <- lists:seq(1, 300)])}.

count(0, Acc) -> Acc;
count(N, Acc) -> count(N - 1, Acc + 1).

count_to(N, Acc) when N =:= 50000 -> Acc;
count_to(N, Acc) -> count_to(N + 1, Acc + N rem 3).

neg(-1000, Acc) -> Acc;
neg(N, Acc) -> neg(N - 1, Acc + 1).

%% =:= and =/= against literals over values that are not small integers
mixed([], Acc) -> Acc;
mixed([X | T], Acc) ->
    A = if X =:= 0 -> 1; X =/= 2 -> 10; true -> 100 end,
    mixed(T, Acc + A).
