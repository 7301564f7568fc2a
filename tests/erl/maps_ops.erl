-module(maps_ops).
-export([main/0]).
main() ->
    M = #{a => 1, b => 2, "c" => 3, 1 => x, 1.0 => y},
    io:format("~p~n", [M]),
    io:format("~p~n", [maps:get(a, M)]),
    io:format("~p~n", [maps:find(z, M)]),
    M2 = M#{a := 10, d => 4},
    io:format("~p~n", [M2]),
    #{b := B} = M2,
    io:format("~p~n", [B]),
    io:format("~p~n", [maps:to_list(#{z => 1, y => 2, x => 3})]),
    io:format("~p~n", [maps:keys(M)]),
    io:format("~p~n", [maps:merge(#{a => 1}, #{b => 2, a => 3})]),
    io:format("~p~n", [maps:fold(fun(K, V, A) -> [{K, V} | A] end, [], #{p => 1, q => 2})]),
    io:format("~p~n", [maps:map(fun(_, V) -> V * 2 end, #{a => 1, b => 2})]),
    io:format("~p~n", [catch maps:get(missing, M)]),
    io:format("~p~n", [catch M#{missing := 1}]),
    io:format("~p~n", [map_size(M)]),
    io:format("~p~n", [maps:from_list([{k, v}, {k2, v2}])]),
    io:format("~p~n", [is_map_key(a, M)]),
    ok.
