-module(float_unboxed).
-export([main/0, norm/2, escape/2, mixed/2, chain/3, guard_sum/2, body_sum/2, loop/4, after_catch/2,
         sel/2, zeros/1, poly/2, recv_float/1]).
%% Float code the bytecode tier keeps unboxed in JVM locals (ADR 0029): values that only flow
%% between float instructions never become terms, and everything around them (overflow into
%% badarith or a failing guard, floats escaping into terms, int/float mixing, exceptions in the
%% middle of a float sequence, signed zeros) must behave as in erl. Each function is called a few
%% thousand times first so it runs compiled.
main() ->
    Args = [{1.5, 2.25}, {-0.0, 0.0}, {0.0, -0.0}, {1.0e154, 1.0e154}, {1.0e200, 3.0},
            {-1.0e308, 1.0e308}, {3.0, 3}, {2, 0.5}, {1.0e-320, 1.0e-320}, {7.0, -7.5}],
    Fs = [norm, escape, mixed, guard_sum, body_sum, after_catch, sel, poly],
    warm(Fs, Args),
    [begin
         io:format("~p:~n", [F]),
         [io:format("  ~p ~p -> ~p~n", [A, B, run(F, [A, B])]) || {A, B} <- Args]
     end || F <- Fs],
    warm_chain(),
    [io:format("chain ~p -> ~p~n", [X, run(chain, [X, 1.5, 10])]) || X <- [0.5, 1.0e100, 1.0e300, -2.0, 3]],
    [io:format("loop ~p -> ~p~n", [N, run(loop, [0, N, 0.0, 0.25])]) || N <- [0, 10, 1000]],
    [io:format("zeros ~p -> ~p~n", [Z, run(zeros, [Z])]) || Z <- [0.0, -0.0, 1.0, -1.0]],
    [io:format("recv ~p -> ~p~n", [V, run(recv_float, [V])]) || V <- [2.0, 1.0e300, -0.5]],
    ok.

warm(Fs, Args) ->
    [[run(F, [A, B]) || F <- Fs, {A, B} <- Args] || _ <- lists:seq(1, 400)],
    ok.

warm_chain() ->
    [run(chain, [X, 1.5, 10]) || X <- [0.5, 1.0e100, -2.0], _ <- lists:seq(1, 1500)],
    [run(loop, [0, 50, 0.0, 0.25]) || _ <- lists:seq(1, 200)],
    [run(zeros, [Z]) || Z <- [0.0, -0.0, 1.0], _ <- lists:seq(1, 1500)],
    [run(recv_float, [2.0]) || _ <- lists:seq(1, 1500)],
    ok.

run(F, Args) ->
    try apply(?MODULE, F, Args)
    catch C:R:St -> {C, R, top(St)}
    end.

%% The two innermost frames (with arguments where erl records them), without file/line info.
top(St) -> [{M, F, A} || {M, F, A, _} <- lists:sublist(St, 2)].

%% The mandelbrot pattern: squares leave the float block for a generic + and a comparison.
norm(A, B) when is_float(A), is_float(B) ->
    A2 = A * A, B2 = B * B,
    if A2 + B2 > 4.0 -> {outside, A2 - B2};
       true -> {inside, A2 * 2.0 - B2}
    end;
norm(A, B) -> {not_floats, A, B}.

%% Intermediate floats escape into a tuple, a list and a map.
escape(A, B) when is_float(A), is_float(B) ->
    S = A * B, D = A - B,
    T = S + D,
    {S, [D, T], #{t => T * 0.5}};
escape(A, B) -> {no, A, B}.

%% Floats mixed with integers: conversions, integer literals, comparisons across types.
mixed(A, B) ->
    X = A * 1.0, Y = B / 2,
    Z = X + Y,
    {Z > 3, Z < 3.0, Z + 1, Z * 2, trunc_or(Z)}.

trunc_or(Z) when Z < 1.0e18, Z > -1.0e18 -> trunc(Z);
trunc_or(_) -> huge.

%% A loop carrying floats in x registers through many iterations, overflowing for large inputs.
chain(X, _, 0) -> X;
chain(X, F, N) when is_float(X), is_float(F) ->
    X2 = X * F,
    Y = X2 * X2,
    if Y < 1.0e10 -> chain(X2 + 0.5, F, N - 1);
       true -> {stopped, N, X2}
    end;
chain(X, F, N) -> {not_floats, X, F, N}.

%% A + B > 4.0 in a guard: an overflowing sum fails the guard (no exception).
guard_sum(A, B) when is_float(A), is_float(B) ->
    A2 = A * A, B2 = B * B,
    if A2 + B2 > 4.0 -> big;
       A2 + B2 >= 0.0 -> small;
       true -> neither
    end;
guard_sum(A, B) -> {A, B}.

%% The same sum in a body: badarith from erlang:'+', with the boxed operands as arguments.
body_sum(A, B) when is_float(A), is_float(B) ->
    A2 = A * A, B2 = B * B,
    S = A2 + B2,
    {S, S >= 1.0};
body_sum(A, B) -> A + B.

%% A float accumulator in a tail-recursive loop (integer index, float step).
loop(N, N, Acc, _) -> Acc;
loop(I, N, Acc, H) -> X = I * H, loop(I + 1, N, Acc + X * X * 0.5 - X, H).

%% An exception in the middle of a float sequence, caught in the same function; the floats
%% computed before it are used after the catch.
after_catch(A, B) when is_float(A), is_float(B) ->
    P = A * 2.0,
    Q = try (A * B) * 1.0e300 catch error:badarith -> overflow end,
    R = P + 1.0,
    {P, Q, R * R};
after_catch(A, B) -> {A, B}.

%% A float compared, then selected on, then used again.
sel(A, B) when is_float(A), is_float(B) ->
    M = A * B,
    K = case M > 10.0 of true -> many; false -> few end,
    case K of
        many -> {K, M - 10.0};
        few -> {K, M + 10.0}
    end;
sel(A, B) -> {A, B}.

%% Signed zeros: comparisons treat -0.0 and 0.0 as equal; arithmetic keeps the sign.
zeros(Z) when is_float(Z) ->
    N = Z * -1.0,
    {N < 0.0, N >= 0.0, Z - N, N * 0.0, N > Z, N + 0.0};
zeros(Z) -> Z.

%% Horner evaluation: many floats that never leave the float block.
poly(X, C) when is_float(X), is_float(C) ->
    Y = ((((C * X + 1.0) * X - 2.0) * X + 0.5) * X - C),
    if Y > 0.0 -> {pos, Y};
       Y < 0.0 -> {neg, Y};
       true -> {zero, Y}
    end;
poly(X, C) -> {X, C}.

%% A float computed before a receive and used after it.
recv_float(V) when is_float(V) ->
    W = V * V,
    self() ! {v, W * 2.0},
    receive {v, U} -> U + W end;
recv_float(V) -> V.
