-module(sweep_lib).
-export([main/0, report/1, report_isolated/1, outcome/1, isolated/1, strip/1]).
%% Shared by the *_sweep differential programs. A case is {Tag, Fun}; its outcome is printed in a
%% form both VMs can agree on: {ok, Value}, or {Class, Reason, ErrorInfo} where the stack trace is
%% dropped except for the error_info of its first frame (erts' cause for a failing BIF).
%% report_isolated/1 runs each case in a process of its own, so trap_exit, links, registered names
%% and the mailbox do not leak from one case into the next. The suite runs every program in
%% tests/erl, this one too: main/0 checks the helper's own forms.

report(Cases) -> [io:format("~p: ~p~n", [Tag, outcome(F)]) || {Tag, F} <- Cases], ok.

report_isolated(Cases) -> [io:format("~p: ~p~n", [Tag, isolated(F)]) || {Tag, F} <- Cases], ok.

outcome(F) ->
    try {ok, F()} catch C:R:St -> {C, strip(R), info(St)} end.

isolated(F) ->
    Me = self(),
    {P, Ref} = spawn_monitor(fun() -> Me ! {self(), outcome(F)} end),
    receive
        {P, Res} -> erlang:demonitor(Ref, [flush]), Res;
        {'DOWN', Ref, process, P, R} -> {died, strip(R)}
    after 5000 -> timeout
    end.

%% {Reason, Stack} exits (function_clause, badarg from a BIF inside a catch) lose the stack.
strip({R, [{_, _, _, _} | _]}) -> R;
strip(R) -> R.

info([{_, _, _, L} | _]) -> proplists:get_value(error_info, L);
info(_) -> none.

main() ->
    report([{value, fun() -> 1 end}, {bif_error, fun() -> atom_to_list(id(1)) end},
            {throw, fun() -> throw(ball) end}, {exit_with_stack, fun() -> exit({r, [{m, f, 0, []}]}) end}]),
    report_isolated([{trap_exit_stays, fun() -> process_flag(trap_exit, true) end},
                     {fresh_process, fun() -> process_flag(trap_exit, false) end},
                     {dies, fun() -> exit(self(), kill) end}]).

id(X) -> X.
