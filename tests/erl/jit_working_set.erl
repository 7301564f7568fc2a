-module(jit_working_set).
%% A server whose steady state starts after the setup has spent the bytecode tier's compile
%% budget (ADR 0063): the setup runs many library functions (scanning, parsing, formatting,
%% sorting), then a server process answers 30,000 requests with a handful of functions of its
%% own. On jbeam those are refused by the budget at first and admitted by the working-set rule
%% once they have been hot for two epochs (ScenarioTest-like check in WorkingSetProgramTest, with
%% a small budget and short epochs); every answer must be the same before and after the switch.
-export([main/0]).

main() ->
    Setup = setup(40),
    Server = spawn(fun() -> loop(#{total => 0, n => 0}) end),
    Answers = [call(Server, {work, I}) || I <- lists:seq(1, 30000)],
    io:format("setup ~p~n", [Setup]),
    io:format("answers ~p ~p ~p~n", [length(Answers), lists:sum(Answers), erlang:phash2(Answers)]),
    io:format("state ~p~n", [call(Server, state)]).

%% Wide, short-lived work: what a server's boot or a TLS handshake looks like to the tier.
setup(0) -> ok;
setup(N) ->
    Text = lists:flatten(io_lib:format("f(~p) -> [X * ~p || X <- lists:seq(1, ~p)], {ok, \"~p\"}.", [N, N, N, N])),
    {ok, Tokens, _} = erl_scan:string(Text),
    {ok, Form} = erl_parse:parse_form(Tokens),
    Sorted = lists:usort([erlang:phash2({N, I}, 1000) || I <- lists:seq(1, 200)]),
    Words = string:lexemes(Text, " ()[],.{}"),
    M = maps:from_list([{W, length(W)} || W <- Words]),
    case {element(1, Form), length(Sorted) > 100, map_size(M) > 3} of
        {function, true, true} -> setup(N - 1);
        Other -> Other
    end.

call(Server, Req) ->
    Ref = make_ref(),
    Server ! {Ref, self(), Req},
    receive {Ref, Answer} -> Answer end.

loop(State) ->
    receive
        {Ref, From, {work, I}} ->
            {Answer, State1} = handle(I, State),
            From ! {Ref, Answer},
            loop(State1);
        {Ref, From, state} ->
            From ! {Ref, State},
            loop(State)
    end.

handle(I, #{total := T, n := N} = S) ->
    A = crunch(I, 0),
    {A, S#{total := (T + A) rem 1000003, n := N + 1}}.

%% The steady state's hot function: a few dozen instructions, called 30,000 times.
crunch(I, Acc) when I > 0 -> crunch(I div 3, mix(Acc, I rem 3));
crunch(_, Acc) -> Acc.

mix(Acc, D) -> (Acc * 7 + D * 13 + 1) band 16#ffff.
