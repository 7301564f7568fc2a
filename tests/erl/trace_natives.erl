-module(trace_natives).
-export([main/0]).
%% Call tracing of BIFs and of the natives jbeam runs in place of Erlang functions (gen_tcp:send/recv):
%% trace_pattern counts them as erl does, and calls through their export are traced, counted and
%% return-traced.
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]), {ok, P} = inet:port(L),
    Self = self(),
    T = spawn(fun() -> (fun Lp() -> receive M -> Self ! {tr, M}, Lp() end end)() end),
    [erlang:trace_pattern(M, [{'_', [], [{return_trace}]}], []) || M <- [{gen_tcp, send, 2}, {gen_tcp, recv, 2}, {erlang, binary_to_term, 1}, {erlang, term_to_binary, 1}, {lists, reverse, 1}]],
    erlang:trace_pattern({erlang, phash2, 1}, true, [call_count]),
    erlang:trace(self(), true, [call, {tracer, T}]),
    {ok, C} = gen_tcp:connect("localhost", P, [binary, {active, false}]), {ok, A} = gen_tcp:accept(L),
    ok = gen_tcp:send(C, <<"hi">>), {ok, B} = gen_tcp:recv(A, 0),
    X = erlang:binary_to_term(erlang:term_to_binary({a, B})),
    _ = [erlang:phash2(I) || I <- lists:seq(1, 5)],
    _ = lists:reverse([1, 2]),
    erlang:trace(self(), false, [call]),
    timer:sleep(100),
    Ms = (fun F(Acc) ->
              receive
                  {tr, {trace, _, call, {M, Fn, Args}}} -> F([{call, M, Fn, length(Args)} | Acc]);
                  {tr, {trace, _, return_from, MFA, V}} -> F([{return_from, MFA, V} | Acc]);
                  {tr, O} -> F([element(3, O) | Acc])
              after 0 -> lists:reverse(Acc)
              end
          end)([]),
    io:format("~p~n~p~n~p~n", [X, Ms, erlang:trace_info({erlang, phash2, 1}, call_count)]),
    code:ensure_loaded(gen_tcp), code:ensure_loaded(prim_inet),
    io:format("~p~n", [[erlang:trace_pattern(M, true, []) || M <- [{gen_tcp, send, 2}, {prim_inet, setopts, 2}, {prim_inet, '_', '_'},
                                                                    {gen_tcp, '_', '_'}, {erlang, binary_to_term, 1}, {erlang, '_', '_'}]]]),
    erlang:trace_pattern({'_', '_', '_'}, false, []).
