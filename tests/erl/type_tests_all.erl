-module(type_tests_all).
-export([main/0]).
%% Every is_* guard test over values of every type, including the reference kinds jbeam keeps as
%% subclasses (timer references, aliases), sub-binaries and bitstrings, external-format copies,
%% ports and funs. Classified once while interpreted and again after the function is hot (compiled
%% by the bytecode tier); both must agree with erl (ADR 0032 changed how the interpreter tests types).
main() ->
    Port = open_port({spawn, "cat"}, []),
    TRef = erlang:start_timer(60000, self(), t),
    Alias = alias(),
    Ref = make_ref(),
    Bin = <<1, 2, 3, 4, 5>>,
    <<_:8, Sub:3/binary, _/binary>> = Bin,
    <<_:3, Bits:13/bits, _/bits>> = Bin,
    Values = [{atom, ok}, {small, 42}, {big, 1 bsl 80}, {float, 1.5}, {nil, []}, {list, [a]},
              {tuple, {a, b}}, {map, #{a => 1}}, {pid, self()}, {ref, Ref}, {timer_ref, TRef},
              {alias, Alias}, {ref_copy, binary_to_term(term_to_binary(TRef))},
              {binary, Bin}, {sub_binary, Sub}, {bitstring, Bits}, {empty_bin, <<>>},
              {fun_local, fun() -> ok end}, {fun_ext, fun lists:reverse/1}, {port, Port}],
    First = [{N, classify(V)} || {N, V} <- Values],
    [[classify(V) || {_, V} <- Values] || _ <- lists:seq(1, 3000)],
    Hot = [{N, classify(V)} || {N, V} <- Values],
    [io:format("~p ~w~n", [N, C]) || {N, C} <- First],
    io:format("same after warm-up: ~p~n", [First =:= Hot]),
    erlang:cancel_timer(TRef),
    unalias(Alias),
    port_close(Port),
    ok.

classify(V) ->
    [T || {T, true} <- [{atom, is_atom(V)}, {integer, is_integer(V)}, {float, is_float(V)},
                        {number, is_number(V)}, {list, is_list(V)}, {tuple, is_tuple(V)},
                        {map, is_map(V)}, {pid, is_pid(V)}, {reference, is_reference(V)},
                        {binary, is_binary(V)}, {bitstring, is_bitstring(V)},
                        {function, is_function(V)}, {function0, is_function(V, 0)},
                        {port, is_port(V)}, {boolean, is_boolean(V)}]]
    ++ [guard(V)].

%% The same tests as guards (is_* instructions with fail labels rather than BIF calls).
guard(V) when is_reference(V) -> g_ref;
guard(V) when is_port(V) -> g_port;
guard(V) when is_binary(V) -> g_bin;
guard(V) when is_bitstring(V) -> g_bits;
guard(V) when is_function(V) -> g_fun;
guard(V) when is_pid(V) -> g_pid;
guard(V) when is_map(V) -> g_map;
guard(V) when is_float(V) -> g_float;
guard(V) when is_number(V) -> g_num;
guard(_) -> g_other.
