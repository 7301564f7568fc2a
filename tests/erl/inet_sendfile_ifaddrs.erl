-module(inet_sendfile_ifaddrs).
%% file:sendfile over gen_tcp (prim_file:get_handle + inet_drv's TCP_REQ_SENDFILE): ranges, the
%% whole file, past the end, by name, a chunk size, a closed socket; inet:getifaddrs/getiflist.
-export([main/0]).
main() ->
    F = "/tmp/jbeam_sendfile_" ++ os:getpid(),
    Data = list_to_binary([integer_to_list(I) || I <- lists:seq(1, 100000)]),
    ok = file:write_file(F, Data),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, Port} = inet:port(L),
    Cases = [{0, 0}, {10, 50000}, {byte_size(Data) - 5, 100}, {byte_size(Data) + 10, 10}, {3, 1}],
    [begin
         {ok, C} = gen_tcp:connect("127.0.0.1", Port, [binary, {active, false}]),
         {ok, S} = gen_tcp:accept(L),
         {ok, Fd} = file:open(F, [read, raw, binary]),
         R = file:sendfile(Fd, S, Off, Len, []),
         ok = file:close(Fd), ok = gen_tcp:close(S),
         Got = recv_all(C, <<>>), gen_tcp:close(C),
         Want = binary:part(Data, min(Off, byte_size(Data)), case Len of 0 -> byte_size(Data) - min(Off, byte_size(Data)); _ -> min(Len, max(0, byte_size(Data) - Off)) end),
         io:format("~p ~p -> ~p ~p~n", [Off, Len, R, Got =:= Want])
     end || {Off, Len} <- Cases],
    %% by name, with packet framing set (sendfile ignores it) and a chunk size
    {ok, C2} = gen_tcp:connect("127.0.0.1", Port, [binary, {active, false}]),
    {ok, S2} = gen_tcp:accept(L),
    ok = inet:setopts(S2, [{packet, 2}]),
    io:format("~p~n", [file:sendfile(F, S2)]),
    {ok, Fd2} = file:open(F, [read, raw, binary]),
    io:format("~p~n", [file:sendfile(Fd2, S2, 0, 1000, [{chunk_size, 100}])]),
    ok = gen_tcp:close(S2),
    io:format("~p~n", [byte_size(recv_all(C2, <<>>))]),
    gen_tcp:close(C2),
    io:format("closed ~p~n", [file:sendfile(Fd2, S2, 0, 10, [])]),
    ok = file:close(Fd2),
    io:format("~p~n", [catch file:sendfile(F, not_a_socket)]),
    ok = file:delete(F),
    io:format("~p~n", [inet:getifaddrs()]),
    io:format("~p~n", [inet:getiflist()]),
    ok.
recv_all(C, Acc) -> case gen_tcp:recv(C, 0, 2000) of {ok, B} -> recv_all(C, <<Acc/binary, B/binary>>); _ -> Acc end.
