%% Differential test: gen_udp edge cases over the emulated udp_inet driver (address in use, large and
%% oversized datagrams, connected-socket errors, controlling_process, getstat, option round trips).
-module(inet_udp_more).
-export([main/0]).

p(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

strip({ok, {IP, Port, Data}}) when is_integer(Port) -> {ok, {IP, port, Data}};
strip(X) -> X.

flush() -> receive M -> [M | flush()] after 100 -> [] end.

norm(L) -> [case M of {udp, _, IP, _, D} -> {udp, IP, D}; {udp_passive, _} -> udp_passive; O -> O end || M <- L].

main() ->
    Lo = {127,0,0,1},
    {ok, A} = gen_udp:open(0, [binary, {active, false}, {ip, Lo}]),
    {ok, PA} = inet:port(A),
    p(in_use, gen_udp:open(PA, [{ip, Lo}])),
    {ok, B} = gen_udp:open(0, [binary, {active, false}, {ip, Lo}]),
    {ok, PB} = inet:port(B),
    Big = binary:copy(<<"z">>, 60000),
    p(send_big, gen_udp:send(A, Lo, PB, Big)),
    {ok, {_, _, Got}} = gen_udp:recv(B, 0, 2000),
    p(recv_big, byte_size(Got) =:= 60000 andalso Got =:= Big),
    p(send_too_big, gen_udp:send(A, Lo, PB, binary:copy(<<"z">>, 70000))),
    p(bad_active, inet:setopts(A, [{active, foo}])),
    p(setopts_buf, inet:setopts(A, [{recbuf, 32768}, {sndbuf, 32768}, {reuseaddr, true}])),
    p(getopts_reuse, inet:getopts(A, [reuseaddr])),
    %% getstat counts
    ok = gen_udp:send(A, Lo, PB, <<"12345">>),
    {ok, _} = gen_udp:recv(B, 0, 2000),
    {ok, St} = inet:getstat(B, [recv_cnt, recv_oct]),
    p(getstat_b, St),
    {ok, St2} = inet:getstat(A, [send_cnt, send_oct]),
    p(getstat_a, St2),
    %% active -1 from passive, and accumulation of active N
    ok = inet:setopts(B, [{active, 1}]),
    ok = inet:setopts(B, [{active, 2}]),
    p(active_sum, inet:getopts(B, [active])),
    ok = inet:setopts(B, [{active, -1}]),
    p(active_minus, inet:getopts(B, [active])),
    ok = inet:setopts(B, [{active, -5}]),
    p(active_neg, {inet:getopts(B, [active]), norm(flush())}),
    ok = inet:setopts(B, [{active, false}]),
    %% controlling_process: active messages go to the new owner
    Self = self(),
    Pid = spawn(fun() -> receive go -> ok end,
                         Self ! {child, norm(flush())} end),
    p(ctl_proc, gen_udp:controlling_process(B, Pid)),
    ok = inet:setopts(B, [{active, once}]),
    ok = gen_udp:send(A, Lo, PB, <<"to child">>),
    timer:sleep(100),
    Pid ! go,
    p(child_got, receive {child, L} -> L after 2000 -> none end),
    p(self_got, norm(flush())),
    %% connected socket to a closed port: a later recv reports econnrefused
    {ok, C} = gen_udp:open(0, [binary, {active, false}, {ip, Lo}]),
    {ok, D} = gen_udp:open(0, [binary, {active, false}, {ip, Lo}]),
    {ok, PD} = inet:port(D),
    ok = gen_udp:close(D),
    ok = gen_udp:connect(C, Lo, PD),
    p(send_to_closed, gen_udp:send(C, <<"x">>)),
    timer:sleep(50),
    p(recv_refused, gen_udp:recv(C, 0, 200)),
    %% connected socket ignores datagrams from others
    {ok, E} = gen_udp:open(0, [binary, {active, false}, {ip, Lo}]),
    {ok, PE} = inet:port(E),
    ok = gen_udp:connect(E, Lo, PA),
    {ok, S2} = gen_udp:open(0, [{ip, Lo}]),
    ok = gen_udp:send(S2, Lo, PE, <<"stranger">>),
    gen_udp:close(S2),
    ok = gen_udp:send(A, Lo, PE, <<"peer">>),
    p(connected_filter, strip(gen_udp:recv(E, 0, 2000))),
    %% inet6 socket with a v4 destination, and inet socket with a v6 one
    p(v6_to_v4sock, gen_udp:send(A, {0,0,0,0,0,0,0,1}, PB, <<"x">>)),
    p(child_closed_b, gen_udp:send(B, Lo, PA, <<"x">>)),
    [gen_udp:close(S) || S <- [A, C, E]],
    %% open with {port, N} option style and reuseaddr sharing
    {ok, F} = gen_udp:open(0, [{reuseaddr, true}, {ip, Lo}]),
    {ok, PF} = inet:port(F),
    G = gen_udp:open(PF, [{reuseaddr, true}, {ip, Lo}]),
    p(reuse_shared, element(1, G)),
    gen_udp:close(F),
    case G of {ok, GS} -> gen_udp:close(GS); _ -> ok end,
    p(info_type, begin {ok, H} = gen_udp:open(0), R = erlang:port_info(H, name), gen_udp:close(H), R end),
    ok.
