-module(code_delete_log).
-export([main/0]).
%% delete_module/1 with old code present: badarg, and the emulator's own error message to the
%% logger ({"~s~n", ["Module M must be purged before deleting\n"]} with erts' metadata);
%% erlang:purge_module/1 goes through erts_code_purger, which kills a process running old code.
main() ->
    Self = self(),
    ok = logger:add_handler_filter(default, capture,
             {fun(#{level := L, msg := M, meta := Meta}, _) ->
                      Self ! {logged, L, M, maps:get(error_logger, Meta, none), maps:is_key(pid, Meta), maps:is_key(gl, Meta)},
                      stop
              end, []}),
    {ok, M, Bin} = compile:forms([{attribute, 1, module, 'cdl target'}, {attribute, 1, export, [{loop, 0}]},
                                  {function, 1, loop, 0, [{clause, 1, [], [], [{'receive', 1, [{clause, 1, [{var, 1, '_'}], [], [{call, 1, {atom, 1, loop}, []}]}]}]}]}]),
    {module, M} = code:load_binary(M, "cdl.erl", Bin),
    Old = spawn(M, loop, []),
    {module, M} = code:load_binary(M, "cdl.erl", Bin),
    R = (catch erlang:delete_module(M)),
    io:format("~p~n", [element(1, element(2, R))]),
    receive Logged -> io:format("~p~n", [Logged]) after 2000 -> io:format("no log~n") end,
    Ref = monitor(process, Old),
    io:format("~p~n", [erlang:purge_module(M)]),
    receive {'DOWN', Ref, process, Old, Why} -> io:format("old code runner: ~p~n", [Why]) after 2000 -> io:format("alive~n") end,
    io:format("~p~n", [catch erlang:purge_module(M)]),
    io:format("~p~n", [erlang:delete_module(M)]),
    receive Again -> io:format("~p~n", [Again]) after 300 -> io:format("no second log~n") end.
