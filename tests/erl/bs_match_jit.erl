-module(bs_match_jit).
-export([main/0]).
%% Binary matching in functions hot enough for the bytecode tier (ADR 0045): every result is
%% printed once cold (interpreted) and again after 40,000 rounds (compiled), so a compiled match
%% instruction that differs from the interpreter's (or from erl) shows up in the output.
inputs() ->
    [<<1,2,3,4,5,6,7,8,9,10,11,12>>, <<"abcdef">>, <<"ab">>, <<>>, <<255,254,253>>, <<1:3>>,
     <<5:7, 1,2,3,4,5,6,7,8>>, <<3, "xyzw", 9>>, <<200, 1, 2>>, <<16#E2, 16#82, 16#AC, 65>>,
     <<0:64/float, 7>>, <<1.5:64/float>>, <<16#7FF0000000000000:64>>, <<"ab", 0:1>>,
     not_a_binary, 42, [1,2,3]].
main() ->
    In = inputs(),
    Cold = [all(B) || B <- In],
    warm(40000, In),
    Hot = [all(B) || B <- In],
    [io:format("~p~n", [R]) || R <- Cold],
    io:format("same when compiled: ~p~n", [Cold =:= Hot]),
    [io:format("~p~n", [R]) || {C, R} <- lists:zip(Cold, Hot), C =/= R],
    io:format("sum ~p~n", [sum(list_to_binary(lists:seq(0, 255)), 0)]),
    io:format("bad ~p~n", [[catch badmatch(T) || T <- [foo, <<1:4>>, <<1,2>>]]]).
warm(N, _) when N =< 0 -> ok;
warm(N, In) -> _ = [all(B) || B <- In], warm(N - length(In), In).
all(B) -> [catch F(B) || F <- [fun m1/1, fun m2/1, fun m3/1, fun m4/1, fun m5/1, fun m6/1, fun m7/1, fun m8/1, fun m9/1]].
m1(<<A:8, B:16, Rest/binary>>) -> {three, A, B, Rest};
m1(<<A:3, B:5/signed, R/bits>>) -> {bits, A, B, R};
m1(<<"ab", R/bits>>) -> {ab, R};
m1(<<>>) -> empty;
m1(X) -> {other, X}.
m2(<<X:16/little-signed, Y:24/little, Z:7/signed, _/bits>>) -> {X, Y, Z};
m2(<<X:4/signed, _/bits>>) -> {four, X};
m2(_) -> no.
m3(<<N:8, Data:N/binary, Tail/binary>>) -> {N, Data, Tail};
m3(<<N:8, _/binary>>) -> {short, N};
m3(_) -> no.
m4(<<_:3, Sub:2/binary, Rest/bits>>) -> {Sub, bit_size(Rest)};
m4(<<_:1, "ab", R/bits>>) -> {str, R};
m4(_) -> no.
m5(B) when is_bitstring(B), bit_size(B) >= 9 -> N = bit_size(B) rem 9, <<_:N, X:8, T/bits>> = B, {N, X, T};
m5(_) -> no.
m6(<<X:72, _/bits>>) -> {big, X};
m6(<<X:64/signed-little, _/bits>>) -> {little64, X};
m6(<<X:40/signed, _/bits>>) -> {s40, X};
m6(_) -> no.
m7(<<F:64/float, R/binary>>) -> {float, F, R};
m7(<<C/utf8, R/binary>>) -> {utf8, C, R};
m7(_) -> no.
m8(<<"abc", R/binary>>) -> {abc, R};
m8(<<A, "yzw", B>>) -> {yzw, A, B};
m8(<<_:5, 1:2, _/bits>>) -> five;
m8(<<_/binary-unit:16>>) -> even;
m8(_) -> no.
m9(B) -> {records(B, []), tails(B)}.
records(<<A:8, B:16, Rest/binary>>, Acc) -> records(Rest, [{A, B} | Acc]);
records(<<>>, Acc) -> {done, Acc};
records(Rest, Acc) -> {left, Rest, Acc}.
tails(<<_:8, T/binary>>) -> [byte_size(T) | tails(T)];
tails(_) -> [].
sum(<<A:8, B:16, Rest/binary>>, S) -> sum(Rest, S + A + B);
sum(<<A:8>>, S) -> S + A;
sum(<<>>, S) -> S.
badmatch(T) -> <<X:8, Y/binary>> = T, {X, Y}.
