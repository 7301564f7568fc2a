-module(eval_exprs).
-export([main/0]).
main() ->
    Exprs = ["1 + 2 * 3.", "lists:seq(1, 5).", "[X * 2 || X <- [1,2,3]].",
             "fun(X) -> X + 1 end(41).", "case {a, 1} of {a, N} -> N + 1 end.",
             "#{a => 1}.", "<<1, 2>>.", "begin A = 5, A * A end.",
             "try throw(x) catch throw:X -> {caught, X} end."],
    [begin
         {ok, Tokens, _} = erl_scan:string(E),
         {ok, Parsed} = erl_parse:parse_exprs(Tokens),
         {value, V, _} = erl_eval:exprs(Parsed, erl_eval:new_bindings()),
         io:format("~s => ~p~n", [E, V])
     end || E <- Exprs],
    ok.
