-module(funs_records).
-export([main/0, pub/1]).
-record(person, {name, age = 0, tags = []}).
main() ->
    P = #person{name = "Ann", age = 30},
    io:format("~p~n", [P]),
    io:format("~p ~p~n", [P#person.name, P#person.age]),
    P2 = P#person{age = 31, tags = [x]},
    io:format("~p~n", [P2]),
    io:format("~p~n", [is_record(P2, person)]),
    Add = fun(A) -> fun(B) -> A + B end end,
    io:format("~p~n", [(Add(2))(3)]),
    io:format("~p~n", [lists:map(fun ?MODULE:pub/1, [1, 2, 3])]),
    F = fun pub/1,
    io:format("~p~n", [F(10)]),
    io:format("~p~n", [erlang:fun_info(F, arity)]),
    io:format("~p~n", [apply(?MODULE, pub, [5])]),
    io:format("~p~n", [apply(fun(X, Y) -> X * Y end, [6, 7])]),
    io:format("~p~n", [catch (fun(X) -> X end)(1, 2)]),
    Counter = counter(0),
    io:format("~p~n", [Counter(Counter(Counter(1)))]),
    io:format("~p~n", [guard_test([1, a, 2.5, "s", {t}, <<"b">>, #{}, self()])]),
    ok.
pub(X) -> X * 10.
counter(N) -> fun(X) -> X + N + 1 end.
guard_test(L) -> [classify(X) || X <- L].
classify(X) when is_integer(X), X > 0 -> pos_int;
classify(X) when is_atom(X) -> atom;
classify(X) when is_float(X) -> float;
classify([_ | _]) -> list;
classify(X) when is_tuple(X), tuple_size(X) =:= 1 -> tuple1;
classify(X) when is_binary(X) -> binary;
classify(X) when is_map(X) -> map;
classify(X) when is_pid(X) -> pid.
