-module(crash_report).
-export([main/0]).
%% The emulator's "Error in process" reports: an uncaught error and an uncaught throw are reported
%% (linked or not), exit/1 and a kill are not; the report reaches the logger well before the node
%% halts 500 ms later. The formatter drops the timestamp so the output compares exactly.
main() ->
    ok = logger:update_formatter_config(default, #{legacy_header => false, single_line => true,
                                                   template => [level, ": ", msg, "\n"]}),
    process_flag(trap_exit, true),
    P = spawn_link(fun() -> error(badarg) end),
    receive {'EXIT', P, {R, _}} -> io:format("linked exit: ~p~n", [R]) end,
    timer:sleep(100),
    spawn(fun() -> throw(ball) end),
    timer:sleep(100),
    spawn(fun() -> exit(quietly) end),
    spawn(fun() -> exit(self(), kill) end),
    spawn(fun() -> error({tuple, reason}) end),
    timer:sleep(500),
    io:format("done~n").
