%% erl_ddll with the drivers jbeam has in Java (runtime_tools' trace_file_drv and trace_ip_drv):
%% loading from the priv dir, per-process load counts, unloading, info, errors, open_port of a
%% loaded driver's command, and the unload of a kill_ports driver killing its ports.
-module(erl_ddll_drivers).
-export([main/0]).

main() ->
    Dir = filename:join(code:priv_dir(runtime_tools), "lib"),
    Tmp = "/tmp/jbeam_erl_ddll_" ++ os:getpid(),
    io:format("~p~n", [erl_ddll:load_driver(Dir, "trace_file_drv")]),
    io:format("~p~n", [erl_ddll:load_driver(Dir, trace_ip_drv)]),
    io:format("~p~n", [erl_ddll:load_driver(Dir, "no_such_drv")]),
    io:format("~p~n", [erl_ddll:load_driver("/nonexistent", "no_such_drv")]),
    {ok, Loaded} = erl_ddll:loaded_drivers(),
    io:format("~p~n", [[D || D <- Loaded, lists:prefix("trace_", D)]]),
    io:format("~p~n", [erl_ddll:info("trace_file_drv", driver_options)]),
    io:format("~p~n", [erl_ddll:info("trace_file_drv", port_count)]),
    io:format("~p~n", [erl_ddll:info("trace_file_drv", linked_in_driver)]),
    io:format("~p~n", [erl_ddll:info("trace_file_drv", processes) =:= [{self(), 1}]]),
    io:format("~p~n", [erl_ddll:info("tcp_inet", linked_in_driver)]),
    io:format("~p~n", [reason(catch erl_ddll:info("no_such_drv", processes))]),
    io:format("~p~n", [erl_ddll:load(Dir, "trace_file_drv")]),
    [io:format("~p~n", [erl_ddll:format_error(E)])
     || E <- [bad_driver_name, not_loaded_by_this_process, no_driver_init, permanent, {open_error, -10}]],
    io:format("~p~n", [reason(catch erl_ddll:format_error(no_such_error))]),
    %% a port of the loaded driver: its name is the command; $f flushes; anything else is a badarg
    P = open_port({spawn, "trace_file_drv n " ++ Tmp}, [eof]),
    io:format("~p~n", [erlang:port_info(P, name) =:= {name, "trace_file_drv n " ++ Tmp}]),
    io:format("~p~n", [erl_ddll:info("trace_file_drv", port_count)]),
    io:format("~p~n", [port_control(P, $f, "")]),
    io:format("~p~n", [reason(catch port_control(P, $x, ""))]),
    port_command(P, term_to_binary({hello, world})),
    port_close(P),
    io:format("~p~n", [file:read_file(Tmp)]),
    io:format("~p~n", [reason(catch open_port({spawn, "trace_file_drv x " ++ Tmp}, [eof]))]),
    io:format("~p~n", [reason(catch open_port({spawn, "trace_file_drv n /nonexistent/dir/f"}, [eof]))]),
    io:format("~p~n", [reason(catch open_port({spawn, "trace_ip_drv x y z"}, [eof]))]),
    file:delete(Tmp),
    %% unload: the last loader's unload drops the driver
    io:format("~p~n", [erl_ddll:try_load(Dir, "trace_file_drv", [{driver_options, [kill_ports]}])]),
    io:format("~p~n", [erl_ddll:info("trace_file_drv", processes) =:= [{self(), 2}]]),
    io:format("~p~n", [erl_ddll:try_unload("trace_file_drv", [])]),
    io:format("~p~n", [erl_ddll:try_unload("trace_file_drv", [])]),
    io:format("~p~n", [erl_ddll:try_unload("trace_file_drv", [])]),
    io:format("~p~n", [erl_ddll:try_unload("ram_file_drv", [])]),
    io:format("~p~n", [erl_ddll:unload_driver("trace_ip_drv")]),
    {ok, Loaded2} = erl_ddll:loaded_drivers(),
    io:format("~p~n", [[D || D <- Loaded2, lists:prefix("trace_", D)]]),
    %% a loader's exit unloads its driver; with kill_ports its port exits with driver_unloaded
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() ->
        ok = erl_ddll:load_driver(Dir, "trace_file_drv"),
        Port = open_port({spawn, "trace_file_drv n " ++ Tmp}, [eof]),
        port_connect(Port, Self),
        unlink(Port),
        Self ! {port, Port},
        receive go -> ok end
    end),
    Port = receive {port, X} -> X end,
    process_flag(trap_exit, true),
    link(Port),
    PRef = erlang:monitor(port, Port),
    Pid ! go,
    receive {'DOWN', Ref, process, Pid, R} -> io:format("loader ~p~n", [R]) end,
    receive {'EXIT', Port, E} -> io:format("port exit ~p~n", [E]) end,
    receive {'DOWN', PRef, port, Port, D} -> io:format("port down ~p~n", [D]) end,
    io:format("~p~n", [erlang:port_info(Port)]),
    {ok, Loaded3} = erl_ddll:loaded_drivers(),
    io:format("~p~n", [[L || L <- Loaded3, lists:prefix("trace_", L)]]),
    file:delete(Tmp),
    ok.

reason({'EXIT', {R, _}}) -> R;
reason(X) -> X.
