-module(inet_gen_tcp_native).
-export([main/0, send/2, recv/2, recv/3]).

%% gen_tcp:send/2, recv/2 and recv/3 (done natively by jbeam for tcp ports of inet_tcp, ADR 0033): the
%% argument forms they take (lengths, timeouts: 0, integers, infinity), the ones left to gen_tcp's own
%% Erlang body (bad lengths and timeouts, non-ports, closed ports, a socket registered to another
%% module), list and binary mode, packet framing, deep iodata. (Bad data: inet_tcp_direct.)
main() ->
    forms(),
    modes(),
    bad_args(),
    closed(),
    other_module(),
    io:format("done~n").

pair(Opts) ->
    {ok, L} = gen_tcp:listen(0, [{active, false}, {reuseaddr, true} | Opts]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [{active, false} | Opts]),
    {ok, S} = gen_tcp:accept(L, 2000),
    gen_tcp:close(L),
    {C, S}.

forms() ->
    {C, S} = pair([binary]),
    ok = gen_tcp:send(C, <<"0123456789">>),
    io:format("recv2 ~p~n", [gen_tcp:recv(S, 3)]),
    io:format("recv3 int ~p~n", [gen_tcp:recv(S, 3, 1000)]),
    io:format("recv3 inf ~p~n", [gen_tcp:recv(S, 2, infinity)]),
    io:format("recv3 zero len ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    io:format("recv3 timeout 0 ~p~n", [gen_tcp:recv(S, 1, 0)]),
    io:format("recv3 timeout 30 ~p~n", [gen_tcp:recv(S, 1, 30)]),
    ok = gen_tcp:send(C, [<<"a">>, [$b, [<<"c">>, "d"]], <<>>, []]),
    io:format("deep ~p~n", [gen_tcp:recv(S, 4, 1000)]),
    io:format("send empty ~p~n", [gen_tcp:send(C, <<>>)]),
    Self = self(),
    spawn(fun() -> Self ! {other, gen_tcp:recv(S, 5, 2000)} end),
    timer:sleep(50),
    ok = gen_tcp:send(C, "later"),
    receive {other, R} -> io:format("other process ~p~n", [R]) end,
    ok = gen_tcp:close(C),
    io:format("peer closed ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    gen_tcp:close(S).

modes() ->
    {C, S} = pair([list]),
    ok = gen_tcp:send(C, <<"list mode">>),
    io:format("list ~p~n", [gen_tcp:recv(S, 9, 1000)]),
    ok = inet:setopts(S, [{packet, 2}]),
    ok = inet:setopts(C, [{packet, 2}]),
    ok = gen_tcp:send(C, "framed"),
    ok = gen_tcp:send(C, [<<"two">>]),
    io:format("packet 2 ~p ~p~n", [gen_tcp:recv(S, 0, 1000), gen_tcp:recv(S, 0)]),
    io:format("packet 2 with length ~p~n", [gen_tcp:recv(S, 3, 100)]),
    ok = inet:setopts(S, [{active, once}]),
    io:format("active ~p ~p~n", [gen_tcp:recv(S, 0, 100), gen_tcp:recv(S, 0)]),
    gen_tcp:close(C),
    gen_tcp:close(S).

bad_args() ->
    {C, S} = pair([binary]),
    ok = gen_tcp:send(C, <<"x">>),
    [io:format("~p -> ~p~n", [A, catch_err(F)]) || {A, F} <- [
        {"recv2 -1", fun() -> gen_tcp:recv(S, -1) end},
        {"recv2 float", fun() -> gen_tcp:recv(S, 1.0) end},
        {"recv2 atom", fun() -> gen_tcp:recv(S, a) end},
        {"recv2 big", fun() -> gen_tcp:recv(S, 1 bsl 70) end},
        {"recv3 -1", fun() -> gen_tcp:recv(S, -1, 100) end},
        {"recv3 timeout atom", fun() -> gen_tcp:recv(S, 1, foo) end},
        {"recv3 timeout float", fun() -> gen_tcp:recv(S, 1, 1.5) end},
        {"recv3 timeout negative", fun() -> ok = gen_tcp:send(C, <<"y">>), timer:sleep(20), gen_tcp:recv(S, 1, -5) end},
        {"send not a port", fun() -> gen_tcp:send(42, <<"x">>) end},
        {"send atom", fun() -> gen_tcp:send(foo, <<"x">>) end},
        {"recv not a port", fun() -> gen_tcp:recv(3.5, 1) end},
        {"recv3 not a port", fun() -> gen_tcp:recv({a, b}, 1, 10) end}]],
    ok = gen_tcp:send(C, <<"z">>),
    io:format("still there ~p~n", [gen_tcp:recv(S, 1, 1000)]),
    gen_tcp:close(C),
    gen_tcp:close(S).

catch_err(F) ->
    try F() of
        V -> {value, V}
    catch
        C:R:St -> {C, R, [{M, Fn, [if is_port(X) -> port; true -> X end || X <- A]} || {M, Fn, A, _} <- lists:sublist(St, 1)]}
    end.

closed() ->
    {C, S} = pair([binary]),
    ok = gen_tcp:close(S),
    io:format("closed own ~p ~p ~p~n", [gen_tcp:send(S, <<"x">>), gen_tcp:recv(S, 1), gen_tcp:recv(S, 1, 10)]),
    io:format("closed peer recv ~p~n", [gen_tcp:recv(C, 0, 1000)]),
    gen_tcp:close(C).

%% A socket whose port data names another module: gen_tcp calls that module (inet_db:lookup_socket).
other_module() ->
    {C, S} = pair([binary]),
    true = inet_db:register_socket(C, ?MODULE),
    true = inet_db:register_socket(S, ?MODULE),
    io:format("registered send ~p~n", [gen_tcp:send(C, <<"via module">>)]),
    io:format("registered recv ~p ~p~n", [gen_tcp:recv(S, 3), gen_tcp:recv(S, 3, 1000)]),
    true = inet_db:register_socket(S, inet_tcp),
    io:format("back to inet_tcp ~p~n", [gen_tcp:recv(S, 0, 1000)]),
    gen_tcp:close(C),
    gen_tcp:close(S).

send(S, Data) -> io:format("  ~p:send~n", [?MODULE]), inet_tcp:send(S, Data).
recv(S, L) -> io:format("  ~p:recv/2~n", [?MODULE]), inet_tcp:recv(S, L).
recv(S, L, T) -> io:format("  ~p:recv/3~n", [?MODULE]), inet_tcp:recv(S, L, T).
