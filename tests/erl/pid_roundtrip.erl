%% Local pids, refs and funs that went through the external term format are the same local
%% things again (a decoded pid can be sent to); node identity and the module md5 match erl.
-module(pid_roundtrip).
-export([main/0]).

main() ->
    P = binary_to_term(term_to_binary(self())),
    P ! hi,
    io:format("~p ~p~n", [receive X -> X after 1000 -> timeout end, P =:= self()]),
    Q = list_to_pid(pid_to_list(self())),
    Q ! hey,
    io:format("~p~n", [receive Y -> Y after 1000 -> timeout end]),
    R = make_ref(),
    io:format("~p~n", [binary_to_term(term_to_binary(R)) =:= R]),
    io:format("~p ~p ~p~n", [node(), node(self()), node(R)]),
    F = fun() -> ok end,
    io:format("~p~n", [erlang:fun_info(F, new_uniq) =:= {new_uniq, ?MODULE:module_info(md5)}]),
    io:format("~p~n", [?MODULE:module_info(md5) =:= element(2, element(2, beam_lib:md5(code:which(?MODULE))))]),
    %% md5 is computed lazily (first fun or module_info): a module loaded at boot that made no fun yet,
    %% and a fun of a module whose md5 nobody asked for before, both as erts computes them.
    io:format("~p~n", [lists:module_info(md5)]),
    io:format("~p~n", [erlang:fun_info(fun lists:map/2, new_uniq)]),
    io:format("~p~n", [erlang:fun_info(string:tokens("a b", " ") =:= ["a", "b"] andalso fun string:len/1, module)]),
    Pid = spawn(fun() -> receive {From, M} -> From ! {back, M} end end),
    binary_to_term(term_to_binary(Pid)) ! {self(), x},
    io:format("~p~n", [receive Z -> Z after 1000 -> timeout end]),
    {ok, H} = inet:gethostname(),
    io:format("~p~n", [H =:= string:trim(element(2, file:read_file("/proc/sys/kernel/hostname")))]),
    io:format("~p ~p ~p~n", [is_alive(), nodes(), nodes([this, connected])]),
    io:format("~p~n", [catch monitor_node(foo@bar, true)]),
    io:format("~p~n", [receive N -> N after 1000 -> timeout end]),
    ok.
