%% Differential driver for ReBifsDiffTest: evaluates each {Fun, Args} case of a consult file on
%% the real OTP re module and prints "HexOfTermToBinary(Case) TAB ~w(NormalisedResult)" per line.
main([File]) ->
    {ok, Cases} = file:consult(File),
    [io:format("~s\t~w~n", [hex(term_to_binary(C)), norm(eval(C))]) || C <- Cases],
    ok.

eval({run_mp, [S, P, COpts, ROpts]}) ->
    case re:compile(P, COpts) of
        {ok, MP} -> call(fun() -> re:run(S, MP, ROpts) end);
        Err -> {compile_failed, Err}
    end;
eval({irun_mp, [S, P, COpts, ROpts, First]}) ->
    {ok, MP} = re:compile(P, COpts),
    call(fun() -> re:internal_run(S, MP, ROpts, First) end);
eval({inspect_mp, [P, COpts]}) ->
    {ok, MP} = re:compile(P, COpts),
    call(fun() -> re:inspect(MP, namelist) end);
eval({F, Args}) ->
    call(fun() -> apply(re, F, Args) end).

call(F) ->
    try F() catch error:R -> {error_raised, R} end.

norm({re_pattern, N, U, C, B}) when is_binary(B) -> {re_pattern, N, U, C, mp};
norm(T) when is_tuple(T) -> list_to_tuple([norm(E) || E <- tuple_to_list(T)]);
norm([H | T]) -> [norm(H) | norm(T)];
norm(X) -> X.

hex(B) -> [io_lib:format("~2.16.0b", [X]) || <<X>> <= B].
