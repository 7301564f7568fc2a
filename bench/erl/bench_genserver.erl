-module(bench_genserver).
-behaviour(gen_server).
%% group: concurrency
-export([run/0, init/1, handle_call/3, handle_cast/2]).
%% gen_server:call throughput: 20000 calls from one client.
run() ->
    {ok, P} = gen_server:start(?MODULE, 0, []),
    [gen_server:call(P, inc) || _ <- lists:seq(1, 20000)],
    gen_server:stop(P).
init(N) -> {ok, N}.
handle_call(inc, _From, N) -> {reply, N + 1, N + 1}.
handle_cast(_, N) -> {noreply, N}.
