-module(ssh_sftp_exec).
%% OTP's ssh application over loopback: a daemon with host keys made by ssh-keygen, password and
%% public-key logins, sftp file transfer, exec of an Erlang expression, a refused password.
-export([main/0]).
main() ->
    logger:set_primary_config(level, warning),
    D = "/tmp/sweep/ssh_" ++ os:getpid(),
    ok = filelib:ensure_dir(D ++ "/sys/x"), ok = filelib:ensure_dir(D ++ "/user/x"),
    [] = os:cmd("ssh-keygen -q -t ecdsa -N '' -f " ++ D ++ "/sys/ssh_host_ecdsa_key"),
    [] = os:cmd("ssh-keygen -q -t ed25519 -N '' -f " ++ D ++ "/user/id_ed25519"),
    {ok, _} = file:copy(D ++ "/user/id_ed25519.pub", D ++ "/sys/authorized_keys"),
    ok = ssh:start(),
    {ok, Daemon} = ssh:daemon(0, [{system_dir, D ++ "/sys"}, {user_dir, D ++ "/sys"},
                                  {user_passwords, [{"u", "pw"}]}, {subsystems, [ssh_sftpd:subsystem_spec([{cwd, D}])]}]),
    [{port, Port}] = ssh:daemon_info(Daemon, [port]),
    {ok, C} = ssh:connect("127.0.0.1", Port, [{user, "u"}, {password, "pw"}, {silently_accept_hosts, true},
                                             {user_interaction, false}, {user_dir, D ++ "/user"}, {save_accepted_host, false}]),
    {ok, Ch} = ssh_sftp:start_channel(C),
    ok = ssh_sftp:write_file(Ch, D ++ "/hello.txt", <<"hello over sftp">>),
    io:format("~p~n", [ssh_sftp:read_file(Ch, D ++ "/hello.txt")]),
    {ok, Names} = ssh_sftp:list_dir(Ch, D),
    io:format("~p~n", [lists:sort(Names)]),
    io:format("~p~n", [ssh_sftp:read_file(Ch, D ++ "/nope")]),
    ok = ssh_sftp:stop_channel(Ch),
    {ok, Ch2} = ssh_connection:session_channel(C, 5000),
    R = ssh_connection:exec(C, Ch2, "1+2.", 5000),
    io:format("exec ~p~n", [R]),
    io:format("~p~n", [collect(C, Ch2, [])]),
    ok = ssh:close(C),
    {ok, C2} = ssh:connect("127.0.0.1", Port, [{user, "u"}, {silently_accept_hosts, true}, {user_interaction, false},
                                              {user_dir, D ++ "/user"}, {save_accepted_host, false}, {auth_methods, "publickey"}]),
    io:format("pubkey ~p~n", [is_pid(C2)]),
    ok = ssh:close(C2),
    io:format("~p~n", [element(1, ssh:connect("127.0.0.1", Port, [{user, "u"}, {password, "bad"}, {silently_accept_hosts, true},
                                                      {user_interaction, false}, {user_dir, D ++ "/user"}, {save_accepted_host, false}, {auth_methods, "password"}], 5000))]),
    ok = ssh:stop_daemon(Daemon),
    ok = ssh:stop(),
    os:cmd("rm -rf " ++ D),
    ok.
collect(C, Ch, Acc) ->
    receive
        {ssh_cm, C, {data, Ch, _, Data}} -> collect(C, Ch, [Data | Acc]);
        {ssh_cm, C, {eof, Ch}} -> collect(C, Ch, [eof | Acc]);
        {ssh_cm, C, {exit_status, Ch, S}} -> collect(C, Ch, [{exit_status, S} | Acc]);
        {ssh_cm, C, {closed, Ch}} -> lists:reverse([closed | Acc])
    after 5000 -> lists:reverse([timeout | Acc])
    end.
