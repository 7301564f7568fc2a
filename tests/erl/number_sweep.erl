-module(number_sweep).
-export([main/0]).
%% Number conversions and arithmetic edges against erl: float printing (shortest round-trip),
%% decimals/scientific options, parsing, bignum arithmetic and bit operations, float limits.
main() ->
    T = [
     {float_to_list_short, fun() -> [float_to_list(F, [short]) || F <- [0.1, 1.0e23, 5.0e-324, 1.7976931348623157e308, 123456.789, -0.0, 1.0e15, 1.0e16]] end},
     {float_to_list_default, fun() -> [float_to_list(F) || F <- [0.1, 1.0e23, 2.5]] end},
     {float_decimals, fun() -> [float_to_binary(F, [{decimals, D}, compact]) || {F, D} <- [{1.0, 3}, {1.25, 1}, {2.675, 2}, {1.0e20, 2}, {0.0001, 10}]] end},
     {float_scientific, fun() -> [float_to_list(F, [{scientific, D}]) || {F, D} <- [{1234.5, 2}, {0.0, 0}, {1.0e-300, 5}]] end},
     {float_decimals_bad, fun() -> float_to_list(1.0, [{decimals, 254}]) end},
     {list_to_float_forms, fun() -> [catch list_to_float(S) || S <- ["1.0", "1.0e10", "1.0E-5", "-0.0", "1e5", ".5", "1.", "+1.5", "1.5e+3"]] end},
     {binary_to_float_inf, fun() -> catch binary_to_float(<<"1.0e400">>) end},
     {list_to_integer_forms, fun() -> [catch list_to_integer(S) || S <- ["+12", "-0", "007", " 1", "1_000", "99999999999999999999999"]] end},
     {integer_to_list_bases, fun() -> [integer_to_list(N, B) || {N, B} <- [{255, 2}, {-255, 16}, {1 bsl 64, 36}, {0, 7}]] end},
     {bignum_ops, fun() -> A = 1 bsl 100 + 7, B = (1 bsl 64) - 3, {A div B, A rem B, -A div B, -A rem B, A * B, A band B, A bor -B, A bxor B, bnot A, A bsr 90, -A bsr 3} end},
     {bignum_compare, fun() -> {1 bsl 64 > 1.0e19, 1 bsl 64 == 18446744073709551616.0, (1 bsl 53) + 1 == float((1 bsl 53) + 1), 1 bsl 1000 < 1.0e308} end},
     {float_big_convert, fun() -> {float(1 bsl 1023), catch float(1 bsl 1024)} end},
     {trunc_big_float, fun() -> {trunc(1.0e20), round(-1.5e19), ceil(1.0e18 + 0.5)} end},
     {float_arith_overflow, fun() -> catch 1.0e308 * 10 end},
     {float_div_zero, fun() -> catch 1.0 / 0 end},
     {int_float_div, fun() -> {7 / 2, -7 div 2, -7 rem 2, 7.0 / 2.0} end},
     {math_funs, fun() -> [math:F(0.5) || F <- [sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, atanh, exp, log, log10, log2, sqrt, erf, erfc]] end},
     {math_pow_edge, fun() -> {math:pow(0.0, 0), math:pow(2, 0.5), catch math:pow(-8, 1/3), math:atan2(-0.0, -1.0)} end},
     {math_floor_ceil, fun() -> {math:floor(-2.5), math:ceil(-2.5), floor(-2.5), ceil(-2.5)} end},
     {number_printing, fun() -> lists:flatten(io_lib:format("~w ~w ~w ~p", [1.0e-5, 123.0e10, 0.30000000000000004, 1.0e100])) end},
     {integer_printing, fun() -> lists:flatten(io_lib:format("~w ~b ~.16b ~x ~X", [-1 bsl 70, 1 bsl 65, -1, 255, 255, "0x"])) end},
     {exact_equal, fun() -> {1 =:= 1.0, 1 == 1.0, 0.0 =:= -0.0, 0.0 == -0.0} end},
     {phash_floats, fun() -> {erlang:phash2(1.0), erlang:phash2(-0.0), erlang:phash2(0.0)} end},
     {float_binary_roundtrip, fun() -> [binary_to_term(term_to_binary(F)) =:= F || F <- [0.1, -0.0, 5.0e-324, 1.0e308]] end},
     {term_to_binary_float, fun() -> {term_to_binary(1.5), term_to_binary(1.5, [{minor_version, 0}])} end}
    ],
    sweep_lib:report(T),
    ok.
