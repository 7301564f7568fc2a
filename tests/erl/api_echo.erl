-module(api_echo).
%% Used by the embedding API test (JBeamApiTest); main/0 keeps it in the differential suite too.
-export([main/0, start/0]).
main() -> io:format("api_echo~n").
start() ->
    register(api_echo, self()),
    receive
        {add, A, B} -> io:format("sum ~p~n", [A + B]);
        Other -> io:format("other ~p~n", [Other])
    end.
