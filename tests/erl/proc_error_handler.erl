-module(proc_error_handler).
%% process_flag(error_handler, M): calls to undefined functions go to M:undefined_function/3;
%% unknown process flags give badopt, bad save_calls values the cause none.
-export([main/0, undefined_function/3]).

undefined_function(M, F, A) -> {handled, M, F, A}.

t(F) ->
    try F() of V -> {ok, V}
    catch C:R:S -> [{_, _, _, I} | _] = S, {C, R, proplists:get_value(error_info, I)}
    end.

main() ->
    Self = self(),
    io:format("~p~n", [process_info(self(), error_handler)]),
    spawn(fun() ->
                  Old = process_flag(error_handler, ?MODULE),
                  R1 = (catch nosuch_module_zz:f(1, 2)),
                  R2 = (catch ?MODULE:not_exported(x)),
                  M = nosuch_module_yy,
                  R3 = (catch apply(M, g, [])),
                  R4 = lists:reverse([1, 2]),
                  R5 = process_info(self(), error_handler),
                  Old2 = process_flag(error_handler, error_handler),
                  R6 = (catch nosuch_module_zz:f(1, 2)),
                  Self ! {done, [Old, R1, R2, R3, R4, R5, Old2, element(1, element(2, R6))]}
          end),
    receive {done, L} -> [io:format("~p~n", [X]) || X <- L] end,
    [io:format("~p ~p~n", [K, t(fun() -> process_flag(K, V) end)])
     || {K, V} <- [{trap_exit, 1}, {{bogus, 1}, 2}, {"x", 1}, {bogus, 1}, {min_heap_size, -1},
                   {sensitive, 1}, {save_calls, -1}, {save_calls, 20000}, {async_dist, true},
                   {priority, x}, {message_queue_data, x}, {error_handler, 1}, {error_handler, error_handler}]],
    ok.
