%% A fun's new_uniq is its module's MD5, which jbeam computes only when something looks at it
%% (ADR 0042): it must still be the MD5 of the code that made the fun, also after that module was
%% replaced by a new version, and the same in fun_info, in the external format and in equality.
-module(fun_md5_lazy).
-export([main/0]).

forms(Vsn) ->
    [{attribute, 1, module, fun_md5_lazy_dyn},
     {attribute, 2, export, [{mk, 0}]},
     {function, 3, mk, 0,
      [{clause, 3, [], [], [{'fun', 3, {clauses, [{clause, 3, [], [], [{integer, 3, Vsn}]}]}}]}]}].

uniq_in_ext(F) ->
    <<131, 112, _Size:32, _Arity:8, Uniq:16/binary, _/binary>> = term_to_binary(F),
    Uniq.

main() ->
    {ok, M, Bin1} = compile:forms(forms(1), [binary]),
    {ok, M, Bin2} = compile:forms(forms(2), [binary]),
    {ok, {M, Md5a}} = beam_lib:md5(Bin1),
    {ok, {M, Md5b}} = beam_lib:md5(Bin2),
    {module, M} = code:load_binary(M, "dyn1.beam", Bin1),
    F1 = M:mk(),
    F1b = M:mk(),
    %% Nothing has asked for the module's MD5 yet: load the new version, purge nothing.
    {module, M} = code:load_binary(M, "dyn2.beam", Bin2),
    F2 = M:mk(),
    io:format("~p~n", [{F1(), F2()}]),
    io:format("~p~n", [erlang:fun_info(F1, new_uniq) =:= {new_uniq, Md5a}]),
    io:format("~p~n", [erlang:fun_info(F2, new_uniq) =:= {new_uniq, Md5b}]),
    io:format("~p~n", [{uniq_in_ext(F1) =:= Md5a, uniq_in_ext(F2) =:= Md5b}]),
    io:format("~p~n", [{F1 =:= F1b, F1 =:= F2, F1 == F2}]),
    io:format("~p~n", [binary_to_term(term_to_binary(F1)) =:= F1]),
    io:format("~p~n", [M:module_info(md5) =:= Md5b]),
    %% A boot module's fun, first fun_info then the module's own md5.
    G = fun lists:reverse/1,
    H = fun(X) -> lists:reverse(X) end,
    io:format("~p~n", [erlang:fun_info(H, new_uniq) =:= {new_uniq, ?MODULE:module_info(md5)}]),
    io:format("~p~n", [{erlang:fun_info(G, type), uniq_in_ext(H) =:= ?MODULE:module_info(md5)}]).
