-module(inet_fd_leak).
%% No descriptor leak: sockets closed by gen_tcp:close and by their owner exiting release their fds (/proc/self/fd).
-export([main/0, nfd/0]).
main() ->
    N0 = nfd(),
    [one() || _ <- lists:seq(1, 100)],
    %% owner exit closes sockets too
    Self = self(),
    [spawn(fun() -> {ok, L} = gen_tcp:listen(0, []), {ok, P} = inet:port(L),
                     {ok, _C} = gen_tcp:connect({127,0,0,1}, P, []), {ok, _S} = gen_tcp:accept(L), Self ! done end) || _ <- lists:seq(1, 50)],
    [receive done -> ok end || _ <- lists:seq(1, 50)],
    timer:sleep(300),
    N1 = nfd(),
    io:format("leak ~p~n", [N1 - N0 < 10]).
one() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    ok = gen_tcp:send(C, <<"x">>), {ok, _} = gen_tcp:recv(S, 1),
    gen_tcp:close(C), gen_tcp:close(S), gen_tcp:close(L).
nfd() -> {ok, L} = file:list_dir("/proc/self/fd"), length(L).
