-module(num_conv).
%% Integer/float conversions: list/binary <-> integer/float with bases and options, rounding,
%% float_to_list/binary options, and mixed arithmetic results.
-export([main/0]).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.
p(Tag, F) -> io:format("~s: ~w~n", [Tag, t(F)]).
id(X) -> X.
main() ->
    Is = [0, 1, -1, 255, -255, 1 bsl 59, (1 bsl 59) - 1, -(1 bsl 59), 1 bsl 64, -(1 bsl 100) + 7, 123456789012345678901234567890],
    [p("i2l", fun() -> [integer_to_list(I, B) || B <- [2, 8, 10, 16, 36]] end) || I <- Is],
    [p("i2b", fun() -> {integer_to_binary(I), integer_to_binary(I, 16)} end) || I <- Is],
    p("i2l bad", fun() -> integer_to_list(1, 37) end),
    p("i2l bad2", fun() -> integer_to_list(1, 1) end),
    [p("l2i", fun() -> list_to_integer(S) end) || S <- ["0", "-0", "+5", "007", "-12345678901234567890", "", "-", "+", "1.0", " 1", "1 ", "١"]],
    [p("l2i base", fun() -> list_to_integer(S, B) end) || {S, B} <- [{"ff", 16}, {"FF", 16}, {"-zz", 36}, {"12", 2}, {"777", 8}, {"z", 35}, {"10", 37}]],
    [p("b2i", fun() -> binary_to_integer(S) end) || S <- [<<"123">>, <<"-9999999999999999999999">>, <<>>, <<"a">>, <<"12", 0>>]],
    [p("b2i base", fun() -> binary_to_integer(S, B) end) || {S, B} <- [{<<"7fffffffffffffff">>, 16}, {<<"-101">>, 2}]],
    Fs = [0.0, -0.0, 1.0, -1.5, 0.1, 1/3, 2/3, 1.0e15, 1.0e16, 123456789.125, 1.0e-5, 1.0e-300, 5.0e-324, 1.7976931348623157e308, 2.5, 3.5, -2.5, 1.0e22, 9007199254740993.0],
    [p("f2l", fun() -> {float_to_list(F), float_to_binary(F)} end) || F <- Fs],
    [p("f2l short", fun() -> float_to_list(F, [short]) end) || F <- Fs],
    [p("f2l opts", fun() -> [float_to_list(F, O) || O <- [[{decimals, 0}], [{decimals, 2}], [{decimals, 5}, compact], [{scientific, 0}], [{scientific, 3}], [{scientific, 10}]]] end) || F <- Fs],
    [p("f2b opts", fun() -> float_to_binary(F, O) end) || {F, O} <- [{1.005, [{decimals, 2}]}, {0.5, [{decimals, 0}]}, {1.5, [{decimals, 0}]}, {2.675, [{decimals, 2}]}, {1.0, [{decimals, 253}]}]],
    p("f2l bad", fun() -> float_to_list(1.0, [{decimals, 254}]) end),
    p("f2l bad2", fun() -> float_to_list(1.0, [{scientific, 250}]) end),
    p("f2l bad3", fun() -> float_to_list(1, []) end),
    [p("l2f", fun() -> list_to_float(S) end) || S <- ["1.0", "-1.5e3", "1.0E-3", "1e3", "1.", ".5", "1.0e400", "0.0", "-0.0", "1.5e+2", "+1.5", "1_0.0", "4.9e-324", "1.0e-400"]],
    [p("b2f", fun() -> binary_to_float(S) end) || S <- [<<"2.5">>, <<"2">>, <<"2.5x">>]],
    [p("round", fun() -> {round(F), trunc(F), floor(F), ceil(F)} end) || F <- [2.5, -2.5, 3.5, 0.49999999999999994, -0.5, 1.0e20, -1.0e20, 7, -7]],
    p("float()", fun() -> [float(1), float(1 bsl 70), float(-(1 bsl 1023))] end),
    p("float overflow", fun() -> float(id(1 bsl 1024)) end),
    p("arith", fun() -> [7 / 2, 7 div 2, -7 div 2, -7 rem 2, 7 rem -2, 1 bsl 64 div 3, (1 bsl 64) rem 7, 2.0 * 3, 1 + 1.0, 1 bsl 1 bsl 2] end),
    p("bits", fun() -> [-1 bsr 10, 1 bsl -1, -16 bsr 2, (1 bsl 100) bsr 98, 5 band -2, -5 bor 2, -5 bxor 3, bnot (1 bsl 70)] end),
    p("compare", fun() -> [1 == 1.0, 1 =:= 1.0, 1 < 1.0, 1.0 < 1, (1 bsl 53) + 1 == float(1 bsl 53), (1 bsl 53) + 1 > float(1 bsl 53), -0.0 == 0.0, -0.0 =:= 0.0] end),
    p("float ops", fun() -> [math:sqrt(2), math:pow(2, 0.5), math:log(10), math:exp(1), math:fmod(7.5, 2), math:floor(-1.5), math:ceil(-1.5), math:pi()] end),
    p("float arith bad", fun() -> id(1.0e308) * 10 end),
    p("math bad", fun() -> math:log(id(0)) end),
    p("math bad2", fun() -> math:sqrt(id(-1)) end),
    p("abs", fun() -> [abs(-1), abs(-1.5), abs(-(1 bsl 70)), abs(-0.0)] end),
    p("max/min", fun() -> [max(1, 1.0), min(1, 1.0), max(1.0, 1), min(1.0, 1)] end),
    p("io_lib", fun() -> [io_lib:format("~w ~p ~s", [1.0e-10, 123.0, float_to_list(0.1, [short])])] end),
    ok.
