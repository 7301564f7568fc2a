-module(zlib_nifs).
%% OTP's zlib module on jbeam's zlib NIFs (system libz through FFM): one-shot and streaming
%% compression in every container format, dictionaries, params changes, concatenated streams,
%% crc32, and the errors erts raises. Output bytes must equal erl's (same libz).
-export([main/0]).

main() ->
    Data = iolist_to_binary([integer_to_list(N) ++ " bottles of beer\n" || N <- lists:seq(1, 2000)]),
    C = zlib:compress(Data),
    io:format("compress ~p ~p ~p~n", [byte_size(C), erlang:md5(C), zlib:uncompress(C) =:= Data]),
    Z = zlib:zip(Data), G = zlib:gzip(Data),
    io:format("zip ~p ~p gzip ~p ~p~n", [byte_size(Z), zlib:unzip(Z) =:= Data, byte_size(G), zlib:gunzip(G) =:= Data]),
    io:format("gzip md5 ~p~n", [erlang:md5(G)]),
    io:format("small ~p ~p ~p~n", [zlib:compress(<<>>), zlib:compress("a"), zlib:gzip(<<"abc">>)]),
    %% streaming with levels, strategies, window bits and flushes
    [begin
         S = zlib:open(),
         ok = zlib:deflateInit(S, Level, deflated, WBits, 8, Strategy),
         B1 = zlib:deflate(S, binary:part(Data, 0, 10000), sync),
         B2 = zlib:deflate(S, binary:part(Data, 10000, byte_size(Data) - 10000), full),
         B3 = zlib:deflate(S, <<>>, finish),
         ok = zlib:deflateEnd(S),
         Out = iolist_to_binary([B1, B2, B3]),
         ok = zlib:inflateInit(S, WBits),
         Back = iolist_to_binary(zlib:inflate(S, Out)),
         Crc = zlib:crc32(S),
         ok = zlib:inflateEnd(S),
         zlib:close(S),
         io:format("stream ~p ~p ~p: ~p ~p ~p ~p~n", [Level, WBits, Strategy, byte_size(Out), erlang:md5(Out), Back =:= Data, Crc])
     end || Level <- [none, best_speed, default, best_compression], WBits <- [15, -15, 31, 9],
            Strategy <- [default, filtered, huffman_only, rle]],
    %% dictionaries
    Dict = <<"bottles of beer">>,
    D = zlib:open(),
    ok = zlib:deflateInit(D),
    Adler = zlib:deflateSetDictionary(D, Dict),
    DC = iolist_to_binary(zlib:deflate(D, Data, finish)),
    ok = zlib:deflateEnd(D),
    ok = zlib:inflateInit(D),
    R = (catch zlib:inflate(D, DC)),
    io:format("dict ~p ~p~n", [Adler, element(1, R)]),
    ok = zlib:inflateReset(D),
    {need_dictionary, Adler2, []} = zlib:inflate(D, DC, [{exception_on_need_dict, false}]),
    ok = zlib:inflateSetDictionary(D, Dict),
    DBack = iolist_to_binary(zlib:inflate(D, [])),
    io:format("dict inflate ~p ~p ~p~n", [Adler2 =:= Adler, DBack =:= Data, byte_size(zlib:inflateGetDictionary(D))]),
    zlib:close(D),
    %% deflateParams mid-stream, chunked inflate
    P = zlib:open(),
    ok = zlib:deflateInit(P, best_speed),
    P1 = zlib:deflate(P, binary:part(Data, 0, 5000)),
    ok = zlib:deflateParams(P, best_compression, filtered),
    P2 = zlib:deflate(P, binary:part(Data, 5000, 5000), finish),
    PC = iolist_to_binary([P1, P2]),
    io:format("params ~p ~p~n", [byte_size(PC), erlang:md5(PC)]),
    ok = zlib:deflateEnd(P),
    ok = zlib:inflateInit(P),
    io:format("safeInflate ~p~n", [chunks(P, zlib:safeInflate(P, PC), 0)]),
    ok = zlib:inflateEnd(P),
    zlib:close(P),
    %% concatenated gzip members: reset continues, cut drops the rest
    Two = <<(zlib:gzip(<<"first ">>))/binary, (zlib:gzip(<<"second">>))/binary>>,
    io:format("gunzip two ~p~n", [zlib:gunzip(Two)]),
    Cut = zlib:open(), ok = zlib:inflateInit(Cut, 31),
    io:format("cut ~p~n", [iolist_to_binary(zlib:inflate(Cut, Two))]),
    zlib:close(Cut),
    %% errors
    io:format("~p~n", [[err(F) || F <- [fun() -> zlib:uncompress(<<"not zlib data">>) end,
                                          fun() -> zlib:gunzip(<<1,2,3,4,5,6,7,8,9,10>>) end,
                                          fun() -> zlib:unzip(<<>>) end,
                                          fun() -> zlib:deflate(zlib:open(), <<"x">>) end,
                                          fun() -> S = zlib:open(), zlib:deflateInit(S), zlib:deflateInit(S) end,
                                          fun() -> S = zlib:open(), zlib:close(S), zlib:close(S) end,
                                          fun() -> zlib:deflateInit(zlib:open(), 11) end,
                                          fun() -> zlib:deflateInit(make_ref()) end,
                                          fun() -> zlib:compress(atom) end,
                                          fun() -> S = zlib:open(), ok = zlib:inflateInit(S), zlib:inflate(S, <<120,156,1,2>>), zlib:inflateEnd(S) end,
                                          fun() -> S = zlib:open(), Self = self(), spawn(fun() -> Self ! frames(catch zlib:deflateInit(S)) end), receive M -> M end end]]]),
    %% compressed files and tar archives go through zlib
    F = "/tmp/zlib_nifs_test." ++ os:getpid(),
    {ok, Fd} = file:open(F, [write, compressed]), ok = file:write(Fd, Data), ok = file:close(Fd),
    {ok, Fd2} = file:open(F, [read, compressed, binary]), {ok, Read} = file:read(Fd2, byte_size(Data) + 10), file:close(Fd2),
    io:format("compressed file ~p~n", [Read =:= Data]),
    ok = erl_tar:create(F, [{"a.txt", <<"hello">>}], [compressed]),
    io:format("tgz ~p~n", [erl_tar:extract(F, [memory, compressed])]),
    file:delete(F),
    ok.

chunks(_, {finished, Out}, N) -> {finished, N, iolist_size(Out)};
chunks(P, {continue, Out}, N) -> iolist_size(Out), chunks(P, zlib:safeInflate(P, []), N + 1).

%% The failing frames without the stream reference (a ref prints differently on each VM).
frames({'EXIT', {Reason, Stack}}) -> {Reason, [{M, F, if is_list(A) -> length(A); true -> A end, Loc} || {M, F, A, Loc} <- Stack]}.

err(F) ->
    try F() of V -> {value, V}
    catch C:R -> {C, R}
    end.
