%% Evaluates each case line "Module Function [Args]" and prints one ~w result per line
%% (or {'EXIT',Class,Reason}); used by the BIF differential tests.
main([File]) ->
    {ok, Bin} = file:read_file(File),
    Lines = string:split(unicode:characters_to_list(Bin), "\n", all),
    [run(L) || L <- Lines, L =/= "", hd(L) =/= $%],
    ok.

run(Line) ->
    {ok, [{atom,_,M}, {atom,_,F} | Toks], _} = erl_scan:string(Line),
    {ok, Args} = erl_parse:parse_term(Toks ++ [{dot,1}]),
    R = try apply(M, F, Args) catch C:E -> {'EXIT', C, E} end,
    io:format("~w~n", [R]).
