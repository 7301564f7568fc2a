-module(bench_bang).
-export([run/0]).
%% group: concurrency
%% Many-to-one messaging: 16 senders x 10000 messages into one receiver.
run() ->
    Self = self(), S = 16, M = 10000,
    [spawn(fun() -> [Self ! x || _ <- lists:seq(1, M)] end) || _ <- lists:seq(1, S)],
    recv(S * M).
recv(0) -> ok;
recv(N) -> receive x -> recv(N - 1) end.
