-module(seq_trace_basic).
-export([main/0]).
%% Sequential tracing against erl: the token's parts and their errors, serials across sends,
%% receives and prints, a token taken over by the receiver and cleared by a message without one,
%% print labels, timestamps, the system tracer. Every worker sets its serial itself and clears
%% its token before it reports (a report with a token would hand it to the main process), and no
%% process with a token spawns (erts emits spawn_request events there that jbeam does not).
main() ->
    Tracer = spawn(fun() -> collect([]) end),
    io:format("no tracer: ~p~n", [seq_trace:get_system_tracer()]),
    io:format("set tracer: ~p ~p~n", [seq_trace:set_system_tracer(Tracer), seq_trace:get_system_tracer() =:= Tracer]),
    Echo = spawn(fun Loop() -> receive {From, M} -> From ! {echo, M}, Loop() end end),
    Quiet = spawn(fun Quiet() -> receive {From, M} -> seq_trace:set_token([]), From ! {quiet, M}, Quiet() end end),
    run(fresh_process, fun() ->
        {[seq_trace:get_token(K) || K <- [label, serial, send, 'receive', print, timestamp,
                                           monotonic_timestamp, strict_monotonic_timestamp]],
         seq_trace:get_token(), seq_trace:print(nothing), erlang:seq_trace_print(x), erlang:seq_trace_print(1, x)}
    end),
    run(set_parts, fun() ->
        A = seq_trace:set_token(serial, {0, 0}),
        B = seq_trace:set_token(label, lab),
        C = [seq_trace:set_token(K, true) || K <- [send, 'receive', print]],
        D = seq_trace:set_token(send, false),
        {A, B, C, D, seq_trace:get_token(), seq_trace:get_token(serial), seq_trace:get_token(label)}
    end),
    run(bad_parts, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        [outcome(fun() -> seq_trace:set_token(K, V) end)
         || {K, V} <- [{serial, x}, {serial, {1, 1 bsl 64}}, {serial, {a, b}}, {serial, {1, 2, 3}},
                       {send, 1}, {bogus, true}, {sequential_trace_token, {1, 2, 3, self(), 4}}]]
        ++ [outcome(fun() -> seq_trace:get_token(bogus) end),
            outcome(fun() -> seq_trace:print(atom_label, x) end),
            outcome(fun() -> erlang:seq_trace(sequential_trace_token, x) end),
            seq_trace:set_token(label, -1), seq_trace:set_token(label, {any, term}),
            seq_trace:set_token(serial, {-1, 1 bsl 40})]
    end),
    run(round_trip, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        seq_trace:set_token(label, 7),
        [seq_trace:set_token(K, true) || K <- [send, 'receive', print]],
        Echo ! {self(), 1},
        receive {echo, 1} -> ok end,
        T1 = seq_trace:get_token(),
        seq_trace:print(hello),
        seq_trace:print(7, labelled),
        seq_trace:print(8, other_label),
        Echo ! {self(), 2},
        receive {echo, 2} -> ok end,
        {T1, seq_trace:get_token()}
    end),
    run(to_self_and_names, fun() ->
        seq_trace:set_token(serial, {10, 20}),
        seq_trace:set_token(label, 9),
        seq_trace:set_token(send, true),
        seq_trace:set_token('receive', true),
        self() ! to_self,
        receive to_self -> ok end,
        register(seq_trace_basic_named, self()),
        seq_trace_basic_named ! by_name,
        {seq_trace_basic_named, node()} ! by_name_node,
        receive by_name -> ok end,
        receive by_name_node -> ok end,
        unregister(seq_trace_basic_named),
        seq_trace:get_token()
    end),
    Dead = spawn(fun() -> ok end),
    timer:sleep(20),
    run(send_to_dead_process, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        seq_trace:set_token(label, dead),
        seq_trace:set_token(send, true),
        Dead ! nobody_there,
        seq_trace:get_token()
    end),
    run(cleared_by_plain_message, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        seq_trace:set_token(label, 3),
        seq_trace:set_token('receive', true),
        Quiet ! {self(), x},
        receive {quiet, x} -> ok end,
        seq_trace:get_token()
    end),
    run(flags_off_still_travel, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        seq_trace:set_token(label, 4),
        Echo ! {self(), 3},
        receive {echo, 3} -> ok end,
        seq_trace:get_token()
    end),
    run(token_roundtrip_api, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        seq_trace:set_token(label, 5),
        seq_trace:set_token(print, true),
        T = seq_trace:set_token([]),
        Empty = seq_trace:get_token(),
        ok = seq_trace:set_token(T),
        {T =:= seq_trace:get_token(), Empty, process_info(self(), sequential_trace_token) =:= {sequential_trace_token, T}}
    end),
    run(timestamps, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        seq_trace:set_token(label, ts),
        seq_trace:set_token(print, true),
        seq_trace:set_token(monotonic_timestamp, true),
        seq_trace:print(mono),
        seq_trace:set_token(strict_monotonic_timestamp, true),
        seq_trace:print(strict),
        seq_trace:set_token(timestamp, true),
        seq_trace:print(now),
        seq_trace:get_token()
    end),
    run(reset, fun() ->
        seq_trace:set_token(label, 6),
        true = seq_trace:reset_trace(),
        seq_trace:get_token()
    end),
    timer:sleep(100),
    Tracer ! {dump, self()},
    receive {events, Es} -> [io:format("event ~p~n", [shape(E)]) || E <- Es] end,
    io:format("tracer off: ~p ~p~n", [seq_trace:set_system_tracer(false) =:= Tracer, seq_trace:get_system_tracer()]),
    io:format("bad tracer: ~p~n", [outcome(fun() -> seq_trace:set_system_tracer(not_a_tracer) end)]),
    io:format("module tracer: ~p~n", [outcome(fun() -> erlang:system_flag(sequential_tracer, {erl_tracer, []}) end)]),
    %% A dead process cannot become the tracer; a tracer that has exited reads as false.
    io:format("dead tracer: ~p~n", [outcome(fun() -> seq_trace:set_system_tracer(Dead) end)]),
    Dies = spawn(fun() -> receive stop -> ok end end),
    false = seq_trace:set_system_tracer(Dies),
    Mon = monitor(process, Dies),
    Dies ! stop,
    receive {'DOWN', Mon, _, _, _} -> ok end,
    io:format("tracer exited: ~p ~p~n", [seq_trace:get_system_tracer(), seq_trace:set_system_tracer(false)]),
    %% A port as tracer gets each event in the external format (cat echoes it back).
    Cat = open_port({spawn, "cat"}, [binary]),
    io:format("port tracer: ~p~n", [seq_trace:set_system_tracer(Cat)]),
    run(print_to_port, fun() ->
        seq_trace:set_token(serial, {0, 0}),
        seq_trace:set_token(label, port),
        seq_trace:set_token(print, true),
        seq_trace:print(to_port)
    end),
    io:format("port got: ~p~n", [anon(binary_to_term(port_data(Cat, <<>>)))]),
    seq_trace:set_system_tracer(false),
    port_close(Cat),
    ok.

port_data(Port, Acc) ->
    receive {Port, {data, D}} ->
        B = <<Acc/binary, D/binary>>,
        try binary_to_term(B), B catch error:badarg -> port_data(Port, B) end
    after 5000 -> timeout
    end.

%% Runs F in a process of its own, whose token is cleared before it reports.
run(Name, F) ->
    Me = self(),
    P = spawn(fun() -> R = F(), seq_trace:set_token([]), Me ! {self(), R} end),
    receive {P, R} -> io:format("~p: ~p~n", [Name, anon(R)]) end.

outcome(F) -> try F() catch C:R -> {C, R} end.

collect(Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)}, collect([]);
        E -> collect([E | Acc])
    end.

%% Timestamps as their shape only.
shape({seq_trace, L, I, {A, B, C}}) when is_integer(A), is_integer(B), is_integer(C) -> {seq_trace, L, anon(I), now_ts};
shape({seq_trace, L, I, {M, U}}) when is_integer(M), is_integer(U) -> {seq_trace, L, anon(I), strict_ts};
shape({seq_trace, L, I, M}) when is_integer(M) -> {seq_trace, L, anon(I), mono_ts};
shape(E) -> anon(E).

anon(P) when is_pid(P) -> pid;
anon(T) when is_tuple(T) -> list_to_tuple([anon(X) || X <- tuple_to_list(T)]);
anon(L) when is_list(L) -> [anon(X) || X <- L];
anon(X) -> X.
