-module(kill_during_wait).
-export([main/0]).
%% A kill that arrives while a process runs, just before it waits in a receive with no clauses
%% (timer:sleep(infinity)): the process must die.
main() ->
    Big = binary:copy(<<"0123456789abcdef">>, 1 bsl 20),
    R = [one(Big) || _ <- lists:seq(1, 5)],
    io:format("~p~n", [lists:usort(R)]).

one(Big) ->
    P = spawn(fun() -> receive go -> ok end, _ = erlang:md5(Big), timer:sleep(infinity) end),
    M = monitor(process, P),
    P ! go,
    timer:sleep(2),
    exit(P, kill),
    receive {'DOWN', M, process, P, Why} -> Why after 5000 -> hung end.
