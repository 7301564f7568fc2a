-module(port_spawn).
%% External program ports (open_port spawn / spawn_executable) and os:cmd, as erl runs them:
%% message shapes per mode (stream, line, packet, binary, eof, exit_status), port_close and
%% {Pid, close}, monitors and links, port_info, errors, os:cmd incl. max_size and big output,
%% and no descriptor left open after many ports (/proc/self/fd).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    io:format("cmd ~p~n", [os:cmd("echo hi")]),
    io:format("cmd exit ~p~n", [os:cmd("echo out; exit 3")]),
    io:format("cmd stderr ~p~n", [os:cmd("echo err 1>&2")]),
    io:format("cmd nostdin ~p~n", [os:cmd("cat")]),
    io:format("cmd max ~p~n", [os:cmd("echo 0123456789", #{max_size => 4})]),
    Big = os:cmd("seq 1 200000"),
    io:format("cmd big ~p ~p~n", [length(Big), erlang:phash2(Big)]),
    io:format("cmd unicode ~p~n", [os:cmd("printf '\\303\\245'")]),
    stream(), line(), packet(), status(), eof_opt(), close_msg(), exec(), env_cd(), info(), errors(), owner_dies(),
    leak().

collect(P, Acc) ->
    receive
        {P, {data, D}} -> collect(P, [Acc, D]);
        {P, {exit_status, S}} -> {iolist_to_binary(Acc), {status, S}};
        {P, eof} -> {iolist_to_binary(Acc), eof};
        {'EXIT', P, R} -> {iolist_to_binary(Acc), {exit, R}}
    after 5000 -> {timeout, iolist_to_binary(Acc)}
    end.

msgs(P, Acc) ->
    receive
        {P, M} -> msgs(P, [M | Acc]);
        {'EXIT', P, R} -> lists:reverse([{'EXIT', R} | Acc])
    after 5000 -> lists:reverse([timeout | Acc])
    end.

stream() ->
    P = open_port({spawn, "cat"}, [stream]),
    true = port_command(P, "abc"),
    P ! {self(), {command, <<"def">>}},
    true = port_command(P, [$g, <<"h">>], []),
    R = recv_n(P, 8, []),
    io:format("stream ~p~n", [R]),
    true = port_close(P),
    io:format("after close ~p~n", [flush(P)]),
    Pb = open_port({spawn, "echo binary"}, [binary]),
    io:format("binary ~p~n", [collect(Pb, [])]).

recv_n(_P, 0, Acc) -> lists:append(lists:reverse(Acc));
recv_n(P, N, Acc) ->
    receive {P, {data, D}} -> recv_n(P, N - length(D), [D | Acc]) after 5000 -> timeout end.

flush(P) ->
    receive {P, M} -> [M | flush(P)]; {'EXIT', P, R} -> [{'EXIT', R} | flush(P)] after 200 -> [] end.

line() ->
    P = open_port({spawn, "printf 'one\\ntwo-long-line\\n\\nlast'"}, [{line, 5}]),
    io:format("line ~p~n", [msgs(P, [])]),
    Pb = open_port({spawn, "printf 'a\\nbb\\n'"}, [{line, 80}, binary, exit_status]),
    io:format("line bin ~p~n", [msgs(Pb, [])]).

packet() ->
    [begin
         P = open_port({spawn, "cat"}, [{packet, N}, binary]),
         port_command(P, <<"hello">>), port_command(P, ["wor", "ld", <<>>]), port_command(P, <<>>),
         Got = [receive {P, {data, D}} -> D after 5000 -> timeout end || _ <- [1, 2, 3]],
         port_close(P),
         io:format("packet ~p ~p~n", [N, Got])
     end || N <- [1, 2, 4]],
    P2 = open_port({spawn, "printf '\\000\\003abc\\000\\001z'"}, [{packet, 2}]),
    io:format("packet in ~p~n", [msgs(P2, [])]).

status() ->
    [begin
         P = open_port({spawn, C}, [exit_status]),
         io:format("status ~p ~p~n", [C, msgs(P, [])])
     end || C <- ["true", "sh -c 'exit 7'", "sh -c 'echo x; exit 255'", "sh -c 'kill -9 $$'", "exit 0",
                  "echo x; exit 3", "nonexistent_cmd_xyz 2>/dev/null"]],
    P = open_port({spawn, "exit 4"}, []),
    io:format("no status ~p~n", [msgs(P, [])]).

eof_opt() ->
    P = open_port({spawn, "sh -c 'echo e; exit 2'"}, [eof, exit_status]),
    M = [receive {P, X} -> X after 5000 -> timeout end || _ <- [1, 2]],
    io:format("eof ~p~n", [M]),
    Info = erlang:port_info(P, name),
    port_close(P),
    io:format("eof open ~p ~p~n", [Info, flush(P)]).

close_msg() ->
    P = open_port({spawn, "cat"}, []),
    P ! {self(), close},
    io:format("close ~p~n", [flush(P)]),
    io:format("closed info ~p~n", [erlang:port_info(P)]),
    io:format("command closed ~p~n", [err(fun() -> port_command(P, "x") end)]),
    io:format("close closed ~p~n", [err(fun() -> port_close(P) end)]),
    Q = open_port({spawn, "cat"}, []),
    Ref = erlang:monitor(port, Q),
    port_close(Q),
    io:format("down ~p~n", [receive {'DOWN', Ref, port, Q, R} -> R after 2000 -> timeout end]),
    Ref2 = erlang:monitor(port, Q),
    io:format("down noproc ~p~n", [receive {'DOWN', Ref2, port, Q, R2} -> R2 after 2000 -> timeout end]),
    Self = self(),
    Z = open_port({spawn, "cat"}, []),
    Pid = spawn(fun() -> receive go -> port_command(Z, "moved\n"), Self ! done end end),
    true = erlang:port_connect(Z, Pid),
    unlink(Z),
    Pid ! go,
    receive done -> ok end,
    io:format("connect ~p ~p~n", [flush(Z), err(fun() -> port_close(Z) end)]).

err(F) -> try F() catch C:R -> {C, R} end.

exec() ->
    Echo = os:find_executable("echo"),
    P = open_port({spawn_executable, Echo}, [{args, ["a b", <<"c">>, "$HOME"]}, exit_status]),
    io:format("exec ~p~n", [collect(P, [])]),
    Sh = os:find_executable("sh"),
    P2 = open_port({spawn_executable, Sh}, [{args, ["-c", "echo $0 $1", "zero", "one"]}, stderr_to_stdout, exit_status]),
    io:format("exec sh ~p~n", [collect(P2, [])]),
    P3 = open_port({spawn_executable, Sh}, [{args, ["-c", "echo to-err 1>&2; echo to-out"]}, stderr_to_stdout, exit_status]),
    io:format("stderr_to_stdout ~p~n", [collect(P3, [])]),
    P4 = open_port({spawn_executable, Sh}, [{args, ["-c", "cat >/dev/null"]}, exit_status, out]),
    port_command(P4, "ignored"),
    timer:sleep(100),
    port_close(P4),
    io:format("out only ~p~n", [flush(P4)]),
    P5 = open_port({spawn, "sleep 0.3; echo in-only"}, [in, exit_status]),
    io:format("in only cmd ~p~n", [catch port_command(P5, "x")]),
    io:format("in only ~p~n", [collect(P5, [])]).

env_cd() ->
    P = open_port({spawn, "echo \"$JB_A|$JB_B|$HOME\"; pwd"},
                  [{env, [{"JB_A", "1"}, {"JB_B", "two words"}, {"HOME", false}]}, {cd, "/tmp"}, exit_status]),
    io:format("env cd ~p~n", [collect(P, [])]),
    os:putenv("JB_PUT", "put"),
    P2 = open_port({spawn, "echo $JB_PUT"}, [exit_status]),
    io:format("putenv ~p~n", [collect(P2, [])]).

info() ->
    P = open_port({spawn, "cat"}, [hide]),
    {name, N} = erlang:port_info(P, name),
    {os_pid, OsPid} = erlang:port_info(P, os_pid),
    {connected, C} = erlang:port_info(P, connected),
    {links, L} = erlang:port_info(P, links),
    port_command(P, "12345"),
    receive {P, {data, _}} -> ok end,
    {input, In} = erlang:port_info(P, input),
    {output, Out} = erlang:port_info(P, output),
    Keys = [K || {K, _} <- erlang:port_info(P)],
    io:format("info ~p ~p ~p ~p ~p ~p ~p~n", [N, is_integer(OsPid), C =:= self(), L =:= [self()], In, Out, Keys]),
    port_close(P).

errors() ->
    E = fun(Name, Opts) -> try open_port(Name, Opts) of P -> {opened, msgs(P, [])} catch C:R -> {C, R} end end,
    io:format("err ~p~n", [E({spawn_executable, "/nonexistent/x"}, [])]),
    io:format("err ~p~n", [E({spawn_executable, "/tmp"}, [exit_status])]),
    io:format("err ~p~n", [E({spawn_executable, "true"}, [])]),
    io:format("err ~p~n", [E({spawn_executable, <<"/bin/echo">>}, [{args, [<<"bin">>]}])]),
    io:format("err ~p~n", [E({spawn, "echo a"}, [{args, ["b"]}])]),
    io:format("err ~p~n", [E({spawn_executable, "/bin/true"}, [{args, [foo]}])]),
    io:format("err ~p~n", [E({spawn_executable, "/bin/true"}, [{packet, 3}])]),
    io:format("err ~p~n", [E({spawn_executable, "/bin/true"}, [{line, 0}])]),
    io:format("err ~p~n", [E({spawn_executable, "/bin/true"}, [bogus])]),
    io:format("err ~p~n", [E({spawn_executable, "/bin/true"}, [{env, [{"A=B", "x"}]}])]),
    io:format("err ~p~n", [E({spawn_executable, "/bin/true"}, [{cd, "/nonexistent"}, exit_status])]),
    io:format("err ~p~n", [E({spawn, ""}, [])]),
    io:format("err ~p~n", [E({spawn, "nonexistent_cmd_xyz 2>/dev/null"}, [exit_status])]),
    io:format("err ~p~n", [E({spawn_executable, "/bin/true"}, [in, out, exit_status])]),
    %% An atom names erts' legacy "vanilla" driver, which opens (creates) a file of that name: an
    %% absolute name in /tmp, removed after, so the test leaves nothing in the working directory.
    Vanilla = "/tmp/jbeam_port_spawn_vanilla_" ++ os:getpid(),
    io:format("err ~p~n", [E(list_to_atom(Vanilla), [])]),
    file:delete(Vanilla),
    io:format("err ~p~n", [catch os:cmd(foo)]),
    flush_all().

flush_all() -> receive _ -> flush_all() after 100 -> ok end.

owner_dies() ->
    Self = self(),
    Pid = spawn(fun() ->
                        P = open_port({spawn, "cat; echo gone >&2"}, []),
                        Self ! {port, P},
                        receive never -> ok end
                end),
    P = receive {port, X} -> X end,
    Ref = erlang:monitor(port, P),
    exit(Pid, kill),
    io:format("owner dies ~p~n", [receive {'DOWN', Ref, port, P, R} -> R after 2000 -> timeout end]).

leak() ->
    [begin P = open_port({spawn, "cat"}, [binary]), port_close(P) end || _ <- lists:seq(1, 30)],
    timer:sleep(300),
    N0 = nfd(), T0 = ntask(),
    [begin P = open_port({spawn, "cat"}, [binary]), port_command(P, "x"), port_close(P) end || _ <- lists:seq(1, 100)],
    [os:cmd("true") || _ <- lists:seq(1, 50)],
    [begin P = open_port({spawn, "true"}, [exit_status]), receive {P, {exit_status, 0}} -> ok end end || _ <- lists:seq(1, 50)],
    timer:sleep(500),
    N1 = nfd(), T1 = ntask(),
    io:format("fd leak ~p~n", [N1 - N0 < 5]),
    %% reader/writer threads end with their child (/proc/self/task counts the VM's threads)
    io:format("thread leak ~p~n", [T1 - T0 < 5]),
    flush_all().

nfd() -> {ok, L} = file:list_dir("/proc/self/fd"), length(L).
ntask() -> {ok, L} = file:list_dir("/proc/self/task"), length(L).
