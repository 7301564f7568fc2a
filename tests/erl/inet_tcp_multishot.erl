-module(inet_tcp_multishot).
-export([main/0]).
%% Receives that go on while nobody reads (ADR 0062: on io_uring a connected socket keeps one
%% multishot receive armed, filling buffers from a shared ring, and stops it at the read-ahead limit).
%% Each case checks that every byte arrives once, in order, whatever the reader does meanwhile:
%% a slow reader of 2 MB (the receive is cancelled at the limit and re-armed as it reads), many
%% connections streaming at once into waiting readers, {active, N} with a sender that never stops,
%% switching between active and passive mid-stream, a peer that closes with data unread, and a
%% reader that closes its socket while data is arriving. SocketBackendsTest also runs it with a
%% buffer ring of two 256-byte buffers, where most completions find no buffer and are re-armed.
main() ->
    slow_reader(),
    many_streams(20, 100000),
    active_n(),
    switch_modes(),
    close_with_data(),
    close_while_arriving(),
    io:format("done~n").

pair(Opts) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    gen_tcp:close(L),
    ok = inet:setopts(S, Opts),
    {C, S}.

chunks(Seed, N, Size) -> [binary:copy(<<((Seed + I) rem 251)>>, Size) || I <- lists:seq(1, N)].

recv_n(S, N) -> recv_n(S, N, []).
recv_n(_, N, Acc) when N =< 0 -> {N, lists:reverse(Acc)};
recv_n(S, N, Acc) ->
    case gen_tcp:recv(S, 0, 5000) of
        {ok, B} -> recv_n(S, N - byte_size(B), [B | Acc]);
        Other -> {Other, lists:reverse(Acc)}
    end.

slow_reader() ->
    {C, S} = pair([]),
    Data = chunks(1, 200, 10000),
    Sender = spawn_link(fun() -> [ok = gen_tcp:send(C, D) || D <- Data], exit(normal) end),
    timer:sleep(300),                          % the reader sleeps while 2 MB arrive
    {Rest, Got} = recv_n(S, 2000000),
    io:format("slow reader: ~p ~p~n", [Rest, erlang:md5(Got) =:= erlang:md5(Data)]),
    unlink(Sender),
    gen_tcp:close(C), gen_tcp:close(S).

many_streams(Conns, Bytes) ->
    Self = self(),
    Pairs = [pair([]) || _ <- lists:seq(1, Conns)],
    Readers = [spawn_link(fun() ->
                   {Rest, Got} = recv_n(S, Bytes),
                   Self ! {self(), I, Rest, erlang:md5(Got)}
               end) || {I, {_, S}} <- lists:zip(lists:seq(1, Conns), Pairs)],
    timer:sleep(20),                           % every reader waits before the data comes
    [spawn_link(fun() -> [ok = gen_tcp:send(C, D) || D <- chunks(I, Bytes div 1000, 1000)] end)
     || {I, {C, _}} <- lists:zip(lists:seq(1, Conns), Pairs)],
    Results = [receive {R, I, Rest, Md5} -> {I, Rest, Md5 =:= erlang:md5(chunks(I, Bytes div 1000, 1000))} end
               || {I, R} <- lists:zip(lists:seq(1, Conns), Readers)],
    io:format("many streams: ~p~n", [lists:usort([{Rest, Ok} || {_, Rest, Ok} <- Results])]),
    [begin gen_tcp:close(C), gen_tcp:close(S) end || {C, S} <- Pairs].

active_n() ->
    {C, S} = pair([]),
    Data = chunks(7, 300, 3000),
    spawn_link(fun() -> [ok = gen_tcp:send(C, D) || D <- Data] end),
    ok = inet:setopts(S, [{active, 5}]),
    Got = active_loop(S, 900000, []),
    io:format("active n: ~p~n", [erlang:md5(Got) =:= erlang:md5(Data)]),
    gen_tcp:close(C), gen_tcp:close(S).

active_loop(_, N, Acc) when N =< 0 -> lists:reverse(Acc);
active_loop(S, N, Acc) ->
    receive
        {tcp, S, B} -> active_loop(S, N - byte_size(B), [B | Acc]);
        {tcp_passive, S} -> timer:sleep(2), ok = inet:setopts(S, [{active, 5}]), active_loop(S, N, Acc)
    after 5000 -> {timeout, N}
    end.

switch_modes() ->
    {C, S} = pair([]),
    Data = chunks(3, 400, 2500),
    spawn_link(fun() -> [ok = gen_tcp:send(C, D) || D <- Data] end),
    Got = switch_loop(S, 1000000, [], 0),
    io:format("switch modes: ~p~n", [erlang:md5(Got) =:= erlang:md5(Data)]),
    gen_tcp:close(C), gen_tcp:close(S).

switch_loop(_, N, Acc, _) when N =< 0 -> lists:reverse(Acc);
switch_loop(S, N, Acc, I) when I rem 2 =:= 0 ->
    {ok, B} = gen_tcp:recv(S, 0, 5000),
    switch_loop(S, N - byte_size(B), [B | Acc], I + 1);
switch_loop(S, N, Acc, I) ->
    ok = inet:setopts(S, [{active, once}]),
    receive
        {tcp, S, B} -> switch_loop(S, N - byte_size(B), [B | Acc], I + 1)
    after 5000 -> {timeout, N}
    end.

close_with_data() ->
    {C, S} = pair([]),
    ok = gen_tcp:send(C, binary:copy(<<"z">>, 50000)),
    ok = gen_tcp:close(C),
    {Rest, Got} = recv_n(S, 60000),
    io:format("peer closed with data: ~p ~p~n", [Rest, iolist_size(Got)]),
    gen_tcp:close(S).

close_while_arriving() ->
    {C, S} = pair([]),
    {_, Ref} = spawn_monitor(fun() -> send_forever(C) end),
    {ok, _} = gen_tcp:recv(S, 0, 5000),
    ok = gen_tcp:close(S),
    R = receive {'DOWN', Ref, _, _, Why} -> Why after 5000 -> timeout end,
    io:format("reader closed while data arrived: sender ~p~n", [R]),
    {C2, S2} = pair([]),                       % the ring still serves new sockets
    ok = gen_tcp:send(C2, <<"after">>),
    io:format("after: ~p~n", [gen_tcp:recv(S2, 5, 5000)]),
    gen_tcp:close(C2), gen_tcp:close(S2), gen_tcp:close(C).

send_forever(C) ->
    case gen_tcp:send(C, binary:copy(<<"y">>, 4000)) of
        ok -> send_forever(C);
        {error, E} -> exit({send, E})
    end.
