-module(lib_jiffy).
-export([main/0]).
main() ->
    Docs = [<<"{\"a\":[1,2.5,\"x\",true,null,{\"b\":{}}]}">>, <<"[]">>, <<"\"\\u00e9\\ud83d\\ude00\"">>,
            <<"123456789012345678901234567890">>, <<"[1e400]">>, <<"{bad">>, <<"[1,2,]">>, <<"  {\"k\" : \"v\" }  ">>],
    [io:format("~p~n", [catch jiffy:decode(D)]) || D <- Docs],
    [io:format("~p~n", [catch jiffy:decode(D, [return_maps])]) || D <- Docs],
    Terms = [{[{a, 1}, {<<"b">>, [1.5, <<"s">>, true, null]}]}, #{<<"m">> => #{x => [1, 2]}}, [<<"é"/utf8>>], 1.0e10, <<255>>, {bad}],
    [io:format("~p~n", [catch jiffy:encode(T)]) || T <- Terms],
    io:format("~p~n", [catch jiffy:encode(#{a => 1}, [pretty])]),
    Big = [#{<<"id">> => I, <<"name">> => integer_to_binary(I), <<"tags">> => [<<"a">>, <<"b">>]} || I <- lists:seq(1, 20000)],
    E = iolist_to_binary(jiffy:encode(Big)),
    io:format("big ~p ~p~n", [byte_size(E), erlang:md5(E)]),
    D = jiffy:decode(E, [return_maps]),
    io:format("roundtrip ~p~n", [D =:= Big]),
    ok.
