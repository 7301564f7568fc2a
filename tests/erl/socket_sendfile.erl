-module(socket_sendfile).
%% socket:sendfile (ADR 0054), over IPv6 loopback: a range of a raw file, count 0 to the end of the file, ranges at and
%% beyond the end, a transfer that fills the socket and continues after the select message
%% (totals only), a closed socket, a bad file handle, and an unconnected UDP socket.
-export([main/0]).
main() ->
    File = "/tmp/jbeam_socket_sendfile.dat",
    ok = file:write_file(File, binary:copy(<<"0123456789">>, 100000)),
    {ok, L} = socket:open(inet6, stream, tcp),
    ok = socket:bind(L, #{family => inet6, addr => loopback}),
    ok = socket:listen(L),
    {ok, C} = socket:open(inet6, stream),
    [ok = socket:setopt(S, {socket, B}, 4096) || {S, B} <- [{C, sndbuf}, {L, rcvbuf}]],
    ok = socket:connect(C, element(2, socket:sockname(L))),
    {ok, A} = socket:accept(L),
    {ok, F} = file:open(File, [read, raw, binary]),
    io:format("~p~n", [socket:sendfile(C, F, 5, 20)]),
    io:format("~p~n", [socket:recv(A, 0, 1000)]),
    Self = self(),
    %% the whole file with nowait: it cannot fit, so the rest follows the select message
    R1 = socket:sendfile(C, F, 0, 0, nowait),
    spawn(fun() -> Self ! {drained, drain(A, 0)} end),
    N1 = case R1 of
             {ok, All} -> All;
             {select, {{select_info, sendfile, H} = SI, Part}} ->
                 receive {'$socket', C, select, H} -> ok end,
                 {ok, Rest} = socket:sendfile(C, SI, Part, 0, infinity),
                 Part + Rest
         end,
    io:format("whole file ~p~n", [N1]),
    io:format("drained ~p~n", [receive {drained, D} -> D after 5000 -> none end]),
    io:format("~p~n", [socket:sendfile(C, F, 999990, 100)]),
    io:format("~p~n", [socket:sendfile(C, F, 2000000, 100)]),
    ok = socket:close(C),
    io:format("~p~n", [socket:sendfile(C, F, 0, 10)]),
    io:format("~p~n", [try socket:sendfile(C, foo, 0, 10) catch error:E -> E end]),
    {ok, U} = socket:open(inet, dgram, udp),
    io:format("~p~n", [socket:sendfile(U, F, 0, 10)]),
    [socket:close(S) || S <- [U, A, L]],
    file:close(F),
    file:delete(File).

drain(S, N) ->
    case socket:recv(S, 0, 500) of
        {ok, B} -> drain(S, N + byte_size(B));
        _ -> N
    end.
