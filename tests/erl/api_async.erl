%% Used by JBeamApiTest (Java functions registered through the embedding API, plain and dirty).
%% main/0 only keeps the differential suite happy: it needs no Java functions.
-module(api_async).
-export([main/0, run/1]).

main() -> io:format("ok~n").

%% N processes call the dirty Java function jtest:slow/1 at once; each also receives unrelated
%% messages while suspended (stray wake-ups must not re-run or resume the call). One caller is
%% killed while it waits. Exits with {results, Sorted, Caught, Plain}.
run(N) ->
    Self = self(),
    Pids = [spawn(fun() ->
                      R = jtest:slow(I),
                      receive _ -> ok after 0 -> ok end,
                      Self ! {done, I, R}
                  end) || I <- lists:seq(1, N)],
    [P ! {noise, K} || P <- Pids, K <- lists:seq(1, 20)],
    Victim = spawn(fun() -> Self ! started, jtest:slow(1000), Self ! victim_survived end),
    receive started -> ok end,
    timer:sleep(50),
    exit(Victim, kill),
    Results = [receive {done, I, R} -> R end || I <- lists:seq(1, N)],
    Caught = (catch jtest:slow(bad)),
    Plain = jtest:plain(21),
    receive victim_survived -> exit(victim_survived) after 400 -> ok end,
    exit({results, Results, Caught, Plain}).
