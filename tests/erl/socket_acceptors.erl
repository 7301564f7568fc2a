-module(socket_acceptors).
%% Several processes accepting on one listen socket of the socket module (ADR 0054): one is the
%% current acceptor, the others queue and are served in turn as connections arrive; a queued
%% acceptor that times out leaves the queue; closing the listen socket fails the rest with closed.
-export([main/0]).
main() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L, 16),
    {ok, Addr} = socket:sockname(L),
    Self = self(),
    Accs = [spawn(fun() -> Self ! {acc, I, socket:accept(L, 3000)} end) || I <- lists:seq(1, 4)],
    Short = spawn(fun() -> Self ! {short, socket:accept(L, 100)} end),
    timer:sleep(50),
    #{num_acceptors := NA} = socket:info(L),
    io:format("acceptors ~p~n", [NA]),
    io:format("short ~p~n", [receive {short, R} -> R after 2000 -> none end]),
    Cs = [begin {ok, C} = socket:open(inet, stream, tcp), ok = socket:connect(C, Addr), C end || _ <- lists:seq(1, 3)],
    Got = [receive {acc, _, {ok, _}} -> ok after 3000 -> none end || _ <- Cs],
    io:format("accepted ~p~n", [Got]),
    spawn(fun() -> timer:sleep(50), socket:close(L) end),
    io:format("last ~p~n", [receive {acc, _, R2} -> R2 after 4000 -> none end]),
    io:format("alive ~p~n", [[is_process_alive(P) || P <- [Short | Accs]]]),
    [socket:close(C) || C <- Cs],
    ok.
