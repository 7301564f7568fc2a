-module(bench_nif_pbkdf2).
%% group: nif
-export([run/0]).
%% crypto:pbkdf2_hmac from 8 processes at once (20000 iterations each).
run() ->
    Self = self(),
    Ps = [spawn(fun() -> Self ! {self(), crypto:pbkdf2_hmac(sha256, <<"pw", I>>, <<"salt">>, 20000, 32)} end)
          || I <- lists:seq(1, 8)],
    [receive {P, K} -> K end || P <- Ps].
