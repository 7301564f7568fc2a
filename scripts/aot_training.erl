-module(aot_training).
%% The training run for the JVM's AOT cache (scripts/aot-cache.sh, ADR 0009). The cache records
%% method profiles from this run and the JIT starts from them in every later bin/jbeam run, so
%% the run must look like real programs: a boot-only training run measured 2-3x slower in steady
%% state on spawn- and message-heavy workloads than no cache at all. Each part is a small
%% version of a kind of work Erlang programs do; together they take a few seconds.
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

main() ->
    [run(Part) || _ <- lists:seq(1, 3),
                  Part <- [spawn_storm, ring, all_to_all, gen_server, timers, ets, maps,
                           binaries, lists, strings, terms, floats, tcp_echo, file_io, nif_crypto]],
    ok.

run(spawn_storm) ->
    Me = self(),
    [spawn(fun() -> Me ! done end) || _ <- lists:seq(1, 20000)],
    [receive done -> ok end || _ <- lists:seq(1, 20000)];
run(ring) ->
    First = lists:foldl(fun(_, Next) -> spawn(fun() -> relay(Next) end) end, self(), lists:seq(1, 500)),
    [begin First ! K, receive K -> ok end end || K <- lists:seq(1, 100)],
    First ! stop;
run(all_to_all) ->
    Me = self(),
    Ps = [spawn(fun() -> receive {go, All} -> [P ! {hi, self()} || P <- All], drain(length(All)), Me ! done end end)
          || _ <- lists:seq(1, 100)],
    [P ! {go, Ps} || P <- Ps],
    [receive done -> ok end || _ <- Ps];
run(gen_server) ->
    {ok, S} = gen_server:start(?MODULE, 0, []),
    [gen_server:call(S, inc) || _ <- lists:seq(1, 20000)],
    [S ! {noise, N} || N <- lists:seq(1, 2000)],
    [gen_server:call(S, inc) || _ <- lists:seq(1, 2000)],
    gen_server:stop(S);
run(timers) ->
    Me = self(),
    [spawn(fun() -> timer_loop(10), Me ! done end) || _ <- lists:seq(1, 500)],
    [receive done -> ok end || _ <- lists:seq(1, 500)];
run(ets) ->
    T = ets:new(t, [set, public]),
    [ets:insert(T, {K, integer_to_list(K)}) || K <- lists:seq(1, 20000)],
    [ets:lookup(T, K) || K <- lists:seq(1, 20000)],
    ets:delete(T);
run(maps) ->
    M = maps:from_list([{K, K * 2} || K <- lists:seq(1, 5000)]),
    lists:foldl(fun(K, Acc) -> maps:put(K, maps:get(K, Acc) + 1, Acc) end, M, lists:seq(1, 5000));
run(binaries) ->
    B = << <<X:8>> || X <- lists:seq(1, 255), _ <- lists:seq(1, 40) >>,
    _ = [byte_size(binary:replace(B, <<1>>, <<2>>, [global])) || _ <- lists:seq(1, 20)],
    [binary:split(B, <<7>>, [global]) || _ <- lists:seq(1, 20)],
    sum_bytes(B, 0);
run(lists) ->
    L = [erlang:phash2(X) || X <- lists:seq(1, 50000)],
    lists:sum(lists:reverse(lists:sort(L)));
run(strings) ->
    S = lists:flatten([io_lib:format("~p ~s ~w~n", [X, "text", {X, [X]}]) || X <- lists:seq(1, 2000)]),
    length(string:tokens(S, " \n"));
run(terms) ->
    T = [{X, <<"bin">>, [X, X], #{k => X}} || X <- lists:seq(1, 2000)],
    T = binary_to_term(term_to_binary(T));
run(floats) ->
    lists:foldl(fun(X, Acc) -> Acc + math:sqrt(X) * 1.5 - X / 3.0 end, 0.0, lists:seq(1, 50000));
run(tcp_echo) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true}]),
    {ok, Port} = inet:port(L),
    Server = spawn(fun() -> {ok, A} = gen_tcp:accept(L), echo(A) end),
    {ok, C} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {active, false}]),
    [begin ok = gen_tcp:send(C, <<N:64>>), {ok, _} = gen_tcp:recv(C, 8) end || N <- lists:seq(1, 2000)],
    gen_tcp:close(C), gen_tcp:close(L), exit(Server, kill);
run(file_io) ->
    Name = filename:join("/tmp", "jbeam_aot_training_" ++ os:getpid()),
    Chunk = binary:copy(<<"x">>, 65536),
    {ok, W} = file:open(Name, [raw, binary, write]),
    [ok = file:write(W, Chunk) || _ <- lists:seq(1, 64)],
    ok = file:close(W),
    {ok, R} = file:open(Name, [raw, binary, read]),
    read_all(R),
    ok = file:close(R),
    {ok, _} = file:read_file(Name),
    file:delete(Name);
%% NIF calls (OTP's crypto.so, which TLS and most servers load): immediates, binaries read in
%% place, resources made and dropped, a dirty job. Skipped where crypto cannot load.
run(nif_crypto) ->
    try crypto:hash(sha256, <<>>) of
        _ ->
            Big = binary:copy(<<"0123456789abcdef">>, 65536),
            [crypto:hash(sha256, Big) || _ <- lists:seq(1, 4)],
            [crypto:hash(sha, integer_to_binary(N)) || N <- lists:seq(1, 2000)],
            [crypto:mac(hmac, sha256, <<"key">>, integer_to_binary(N)) || N <- lists:seq(1, 1000)],
            _ = crypto:pbkdf2_hmac(sha256, <<"pw">>, <<"salt">>, 1000, 32),
            _ = crypto:strong_rand_bytes(64)
    catch _:_ -> ok
    end.

relay(Next) -> receive stop -> Next ! stop; M -> Next ! M, relay(Next) end.
drain(0) -> ok;
drain(N) -> receive {hi, _} -> drain(N - 1) end.
timer_loop(0) -> ok;
timer_loop(K) ->
    receive never -> ok after 1 -> ok end,
    T = erlang:start_timer(10000, self(), late),
    erlang:cancel_timer(T),
    timer_loop(K - 1).
sum_bytes(<<X, Rest/binary>>, Acc) -> sum_bytes(Rest, Acc + X);
sum_bytes(<<>>, Acc) -> Acc.
echo(S) -> case gen_tcp:recv(S, 0) of {ok, D} -> gen_tcp:send(S, D), echo(S); _ -> ok end.
read_all(F) -> case file:read(F, 65536) of {ok, _} -> read_all(F); eof -> ok end.

init(N) -> {ok, N}.
handle_call(inc, _From, N) -> {reply, N + 1, N + 1}.
handle_cast(_, N) -> {noreply, N}.
handle_info(_, N) -> {noreply, N}.
