-module(bench_gscall_long).
-behaviour(gen_server).
%% group: concurrency
-export([run/0, init/1, handle_call/3, handle_cast/2]).
%% gen_server:call with a long mailbox: the client has 10000 unrelated messages queued, so each
%% call's receive must skip them (receive markers make that O(1)); 5000 calls.
run() ->
    {ok, P} = gen_server:start(?MODULE, 0, []),
    [self() ! {junk, I} || I <- lists:seq(1, 10000)],
    [gen_server:call(P, inc) || _ <- lists:seq(1, 5000)],
    flush(10000),
    gen_server:stop(P).
flush(0) -> ok;
flush(N) -> receive {junk, _} -> flush(N - 1) end.
init(N) -> {ok, N}.
handle_call(inc, _From, N) -> {reply, N + 1, N + 1}.
handle_cast(_, N) -> {noreply, N}.
