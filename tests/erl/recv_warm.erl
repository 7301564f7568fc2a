-module(recv_warm).
-behaviour(gen_server).
%% The paths ADR 0043 changed, each run often enough to be compiled by the bytecode tier and
%% then taken the rare way: gen_server calls after a timed-out call left its receive marker
%% bound (a second marker in the same process), receive timeouts in compiled code, compiled
%% functions whose callee waits (a direct call returning LEAVE), the interpreter's + - element
%% fast paths on every kind of operand, and =:= over many term types.
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).
-export([arith/2, elem/2, eq/2]).

main() ->
    calls_after_timeouts(),
    receive_timeouts(),
    waits_under_calls(),
    arithmetic(),
    exact_equality(),
    ok.

%% ---- gen_server calls, some timing out ----

calls_after_timeouts() ->
    {ok, S} = gen_server:start(?MODULE, 0, []),
    R1 = [gen_server:call(S, inc) || _ <- lists:seq(1, 3000)],
    T = [catch gen_server:call(S, {sleep, 50}, 5) || _ <- lists:seq(1, 3)],
    R2 = [gen_server:call(S, inc) || _ <- lists:seq(1, 3000)],
    %% A call that timed out must not leave its reply behind (its alias is gone).
    timer:sleep(200),
    Left = flush_all([]),
    N = gen_server:call(S, get),
    gen_server:stop(S),
    io:format("calls ~p ~p ~p~n", [lists:last(R1), lists:last(R2), N]),
    io:format("timeouts ~p~n", [[element(1, element(2, X)) || X <- T]]),
    io:format("left ~p~n", [Left]).

flush_all(Acc) -> receive M -> flush_all([M | Acc]) after 0 -> lists:reverse(Acc) end.

init(N) -> {ok, N}.
handle_call(inc, _From, N) -> {reply, N + 1, N + 1};
handle_call(get, _From, N) -> {reply, N, N};
handle_call({sleep, Ms}, _From, N) -> timer:sleep(Ms), {reply, slept, N}.
handle_cast(_, N) -> {noreply, N}.
handle_info(_, N) -> {noreply, N}.

%% ---- receive ... after in a hot function ----

receive_timeouts() ->
    self() ! {tick, 1},
    R = [wait_or_timeout(I) || I <- lists:seq(1, 4000)],
    io:format("receive timeouts ~p ~p~n", [length([x || timeout <- R]), [X || X <- R, X =/= timeout]]).

wait_or_timeout(I) when I rem 1000 =:= 0 ->
    self() ! {tick, I},
    receive {tick, T} -> {got, T} after 0 -> timeout end;
wait_or_timeout(_) ->
    receive {tick, T} -> {got, T} after 0 -> timeout end.

%% ---- a compiled caller whose callee waits (the direct call returns LEAVE) ----

waits_under_calls() ->
    Echo = spawn(fun echo/0),
    S = lists:foldl(fun(I, Acc) -> Acc + ask(Echo, I) end, 0, lists:seq(1, 3000)),
    Echo ! stop,
    io:format("waits ~p~n", [S]).

ask(Echo, I) ->
    V = ask1(Echo, I),
    V + 1.

ask1(Echo, I) ->
    Echo ! {self(), I},
    receive {echo, I} -> I end.

echo() ->
    receive
        {From, I} ->
            case I rem 7 of 0 -> erlang:yield(); _ -> ok end,
            From ! {echo, I},
            echo();
        stop -> ok
    end.

%% ---- + - element on every kind of operand, interpreted and compiled ----

arithmetic() ->
    Big = 1 bsl 62,
    Cases = [{1, 2}, {-5, 3}, {Big, Big}, {-Big, -Big}, {(1 bsl 63) - 1, 1}, {1.5, 2}, {2, 0.25},
             {1 bsl 70, 1}, {a, 1}, {1, []}, {0.0, -0.0}],
    First = [arith(A, B) || {A, B} <- Cases],
    Hot = lists:last([[arith(A, B) || {A, B} <- Cases] || _ <- lists:seq(1, 400)]),
    io:format("arith ~p~n", [First]),
    io:format("arith hot same ~p~n", [First =:= Hot]),
    T = {a, b, c},
    Es = [{1, T}, {3, T}, {0, T}, {4, T}, {1.0, T}, {1, [a]}, {1 bsl 70, T}],
    FirstE = [elem(I, X) || {I, X} <- Es],
    HotE = lists:last([[elem(I, X) || {I, X} <- Es] || _ <- lists:seq(1, 400)]),
    io:format("element ~p ~p~n", [FirstE, FirstE =:= HotE]).

arith(A, B) ->
    {try A + B catch error:E1 -> E1 end, try A - B catch error:E2 -> E2 end}.

elem(I, T) -> try element(I, T) catch error:E -> E end.

%% ---- =:= over many types ----

exact_equality() ->
    R = make_ref(),
    Vs = [1, 1.0, a, [], [1], {1}, {1, 2}, <<"b">>, R, self(), #{k => 1}, 1 bsl 70, "s", fun main/0],
    Pairs = [{A, B} || A <- Vs, B <- Vs],
    First = [eq(A, B) || {A, B} <- Pairs],
    Hot = lists:last([[eq(A, B) || {A, B} <- Pairs] || _ <- lists:seq(1, 100)]),
    io:format("eq ~p ~p ~p~n", [length([x || true <- First]), length(First), First =:= Hot]),
    io:format("refs ~p ~p~n", [eq(R, binary_to_term(term_to_binary(R))), eq(R, make_ref())]).

eq(A, B) -> A =:= B.
