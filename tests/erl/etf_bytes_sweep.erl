-module(etf_bytes_sweep).
-export([main/0]).
%% term_to_binary's bytes against erl's for terms whose encoding is fixed (no pids, ports or
%% refs, whose node creation differs): atom forms, integers at each size boundary, floats,
%% bignums, strings, improper lists, maps small and large, external funs, options (OTP 25 has no
%% `local` option: term_to_binary raises badarg for it on both VMs).
main() ->
    Terms = [a, 'λ', '', list_to_atom(lists:duplicate(255, $x)), 0, 255, 256, -1, 1 bsl 31 - 1, 1 bsl 31, -(1 bsl 31), -(1 bsl 31) - 1,
             1 bsl 64, -(1 bsl 64), 1 bsl 2040, 1.5, -0.0, [], "abc", [1, 256], [a | b], {}, {a, {b}}, <<>>, <<1, 2>>, <<1:3>>,
             #{}, #{a => 1, b => [2]}, maps:from_list([{K, K} || K <- lists:seq(1, 40)]), fun lists:map/2, [$a | <<"b">>],
             lists:seq(1, 300), lists:duplicate(70000, $z), true, {true, false, undefined}],
    [io:format("~w~n", [erlang:md5(term_to_binary(T))]) || T <- Terms],
    Opts = [[compressed], [{compressed, 9}], [{minor_version, 0}], [{minor_version, 1}], [{minor_version, 2}], [deterministic]],
    T2 = {[1.5, 'λ', #{z => 1, a => 2}], lists:seq(1, 100)},
    [io:format("~p ~w~n", [O, erlang:md5(term_to_binary(T2, O))]) || O <- Opts],
    io:format("~w~n", [[erlang:external_size(T) || T <- Terms]]),
    io:format("~w~n", [binary_to_term(term_to_binary(Terms)) =:= Terms]).
