-module(proc_info_messages).
%% process_info(P, messages) sees messages sent to P that P has not taken in yet (it is waiting, or
%% suspended), in order, as message_queue_len counts them; and the caller's own queue.
-export([main/0]).
main() ->
    P = spawn(fun() -> receive go -> ok end end),
    P ! a, P ! b, P ! {c, 1},
    io:format("~p ~p~n", [process_info(P, messages), process_info(P, message_queue_len)]),
    timer:sleep(10),
    io:format("~p ~p~n", [process_info(P, messages), process_info(P, message_queue_len)]),
    erlang:suspend_process(P),
    P ! d,
    io:format("~p ~p~n", [process_info(P, messages), process_info(P, message_queue_len)]),
    erlang:resume_process(P),
    P ! go,
    self() ! one, self() ! {two, 2},
    io:format("~p ~p~n", [process_info(self(), messages), process_info(self(), message_queue_len)]),
    receive one -> ok end,
    io:format("~p ~p~n", [process_info(self(), messages), process_info(self(), message_queue_len)]),
    ok.
