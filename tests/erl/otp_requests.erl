-module(otp_requests).
%% Asynchronous requests (gen_server/gen_statem send_request, wait/receive/check_response, OTP 25
%% request id collections), gen_server:enter_loop, and sys debug items that print no pids: sys:log,
%% sys:install of a debug fun, sys:get_status of a suspended server.
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2, enter/1,
         callback_mode/0, handle_event/4]).

show(X) -> io:format("~p~n", [X]).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.

main() ->
    logger:set_primary_config(level, none),
    requests(),
    collections(),
    statem_requests(),
    enter_loop(),
    sys_debug(),
    ok.

requests() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    R1 = gen_server:send_request(S, {echo, 1}),
    show(gen_server:wait_response(R1, 1000)),
    %% Generous margins: the timeouts must fire well before the replies, even on a cold VM.
    R2 = gen_server:send_request(S, {slow, 400}),
    show(gen_server:wait_response(R2, 10)),
    show(gen_server:wait_response(R2, 1000)),
    R3 = gen_server:send_request(S, {echo, 3}),
    show(gen_server:receive_response(R3, 1000)),
    R4 = gen_server:send_request(S, {echo, 4}),
    timer:sleep(20),
    show(receive Msg -> gen_server:check_response(Msg, R4) after 100 -> none end),
    show(gen_server:check_response(unrelated, R4)),
    R5 = gen_server:send_request(S, {slow, 400}),
    show(gen_server:receive_response(R5, 10)),
    timer:sleep(450),
    %% receive_response with a timeout abandons the request: the late reply is dropped.
    show(receive Late -> {late, Late} after 50 -> no_late end),
    R6 = gen_server:send_request(S, {crash, boom}),
    show(strip(gen_server:wait_response(R6, 1000))),
    R7 = gen_server:send_request(S, {echo, 7}),
    show(strip(gen_server:wait_response(R7, 1000))),
    R8 = gen_server:send_request(no_such_name_req, x),
    show(strip(gen_server:wait_response(R8, 1000))),
    ok.

%% {error, {Reason, Pid}} / {error, {Reason, Label}}: the pid replaced.
strip({error, {R, P}}) when is_pid(P) -> {error, {R, pid}};
strip({error, {R, P}, C}) when is_pid(P) -> {error, {R, pid}, C};
strip({Resp, Label, C}) -> {Resp, Label, is_tuple(C) orelse is_list(C) orelse is_map(C)};
strip(X) -> X.

collections() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    C0 = gen_server:reqids_new(),
    show(gen_server:reqids_size(C0)),
    C1 = gen_server:send_request(S, {echo, a}, label_a, C0),
    C2 = gen_server:send_request(S, {slow, 30}, label_b, C1),
    C3 = gen_server:send_request(S, {echo, c}, label_c, C2),
    show(gen_server:reqids_size(C3)),
    show(lists:sort([L || {_, L} <- gen_server:reqids_to_list(C3)])),
    {Res1, C4} = take(gen_server:receive_response(C3, 1000, true)),
    {Res2, C5} = take(gen_server:wait_response(C4, 1000, true)),
    {Res3, C6} = take(gen_server:receive_response(C5, 1000, true)),
    show(lists:sort([Res1, Res2, Res3])),
    show(gen_server:reqids_size(C6)),
    show(gen_server:receive_response(C6, 100, true)),
    C7 = gen_server:send_request(S, {echo, d}, label_d, C6),
    {{reply, d}, label_d, C8} = gen_server:wait_response(C7, 1000, false),
    show(gen_server:reqids_size(C8)),
    R = gen_server:send_request(S, {echo, e}),
    C9 = gen_server:reqids_add(R, label_e, gen_server:reqids_new()),
    show(element(1, element(2, catch gen_server:reqids_add(R, again, C9)))),
    show(element(2, gen_server:receive_response(C9, 1000, true))),
    show(t(fun() -> gen_server:receive_response(C9, bad_timeout, true) end) =/= ok),
    ok.

take({Resp, Label, C}) -> {{Resp, Label}, C}.

statem_requests() ->
    {ok, M} = gen_statem:start(?MODULE, statem, []),
    R = gen_statem:send_request(M, ping),
    show(gen_statem:wait_response(R, 1000)),
    C = gen_statem:send_request(M, ping, one, gen_statem:reqids_new()),
    show(element(1, gen_statem:receive_response(C, 1000, true))),
    gen_statem:stop(M),
    ok.

enter_loop() ->
    Me = self(),
    P = proc_lib:spawn(?MODULE, enter, [Me]),
    receive entering -> ok end,
    show(gen_server:call(P, {echo, looped})),
    show(gen_server:call(enter_loop_named, {echo, by_name})),
    ok = gen_server:stop(P),
    ok.

enter(Me) ->
    register(enter_loop_named, self()),
    Me ! entering,
    gen_server:enter_loop(?MODULE, [], entered_state, {local, enter_loop_named}).

sys_debug() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    ok = sys:log(S, {true, 10}),
    gen_server:call(S, {echo, x}),
    gen_server:cast(S, cast_me),
    S ! info_me,
    {ok, Events} = sys:log(S, get),
    show([anon(E) || E <- Events]),
    ok = sys:log(S, false),
    {ok, Events2} = sys:log(S, get),
    show(Events2),
    Me = self(),
    ok = sys:install(S, {my_dbg, fun(St, Ev, _Name) -> Me ! {dbg, anon(Ev)}, St + 1 end, 0}),
    gen_server:call(S, {echo, y}),
    show([receive {dbg, E} -> E after 1000 -> none end || _ <- [1, 2]]),
    ok = sys:remove(S, my_dbg),
    gen_server:call(S, {echo, z}),
    show(receive {dbg, _} -> still_installed after 50 -> removed end),
    ok = sys:suspend(S),
    {status, _, _, [_, SysState, _, _, _]} = sys:get_status(S),
    show(SysState),
    ok = sys:resume(S),
    show(sys:no_debug(S)),
    ok.

anon(P) when is_pid(P) -> pid;
anon(R) when is_reference(R) -> ref;
anon([H | T]) -> [anon(H) | anon(T)];
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon(X) -> X.

init(statem) -> {ok, idle, none};
init([]) -> {ok, []}.

handle_call({echo, X}, _From, S) -> {reply, X, S};
handle_call({slow, T}, _From, S) -> timer:sleep(T), {reply, {slept, T}, S};
handle_call({crash, R}, _From, _S) -> exit(R).
handle_cast(_, S) -> {noreply, S}.
handle_info(_, S) -> {noreply, S}.

callback_mode() -> handle_event_function.
handle_event({call, From}, ping, _, _) -> {keep_state_and_data, [{reply, From, pong}]}.
