-module(floats).
-export([main/0]).
main() ->
    Fs = [0.0, 1.0, -1.5, 0.1, 1/3, 2/3, 1.0e10, 1.0e-10, 123456789.123, 1.0e100, 5.0e-324, 1.7976931348623157e308, 100.0, 0.5e-3],
    [io:format("~p ~w ~s ~p~n", [F, F, float_to_list(F), catch float_to_list(F, [{decimals, 4}])]) || F <- Fs],
    io:format("~.3f ~.2e ~g~n", [3.14159, 31415.9, 0.000123]),
    io:format("~p~n", [[trunc(2.7), round(2.5), round(-2.5), floor(-1.5), ceil(1.2)]]),
    io:format("~p~n", [math:sqrt(2)]),
    io:format("~p~n", [math:pow(2, 0.5)]),
    io:format("~p~n", [list_to_float("3.25e2")]),
    io:format("~p~n", [catch list_to_float("3")]),
    io:format("~p~n", [1 == 1.0]),
    io:format("~p~n", [1 =:= 1.0]),
    io:format("~p~n", [float(12345678901234567890)]),
    ok.
