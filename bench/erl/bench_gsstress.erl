-module(bench_gsstress).
-behaviour(gen_server).
%% group: concurrency
-export([run/0, init/1, handle_call/3, handle_cast/2]).
%% gen_server stress (bencherl "genstress"): 50 clients each make 1000 calls to one server.
run() ->
    {ok, P} = gen_server:start(?MODULE, 0, []),
    Self = self(), C = 50,
    [spawn(fun() -> [gen_server:call(P, inc) || _ <- lists:seq(1, 1000)], Self ! done end) || _ <- lists:seq(1, C)],
    [receive done -> ok end || _ <- lists:seq(1, C)],
    gen_server:stop(P).
init(N) -> {ok, N}.
handle_call(inc, _From, N) -> {reply, N + 1, N + 1}.
handle_cast(_, N) -> {noreply, N}.
