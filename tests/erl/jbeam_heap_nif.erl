-module(jbeam_heap_nif).
%% native/test_nif_heap.c: a NIF library that never calls back into the VM, so jbeam passes its
%% large binary arguments in place (critical downcalls with heap access, ADR 0006). Results must
%% equal erl's, also when a continuation uses the binary after the first step, on a normal or a
%% dirty scheduler, and while garbage collections move the heap.
-on_load(init/0).
-export([sum/2, slice/3, same/1, fail_with/1, stepped/2, wrapped/2]).
-export([main/0]).

init() ->
    Dir = filename:dirname(code:which(?MODULE)),
    erlang:load_nif(filename:join([Dir, "..", "native", "native", "libjbeam_heap_nif"]), 0).

sum(_, _) -> erlang:nif_error(not_loaded).
slice(_, _, _) -> erlang:nif_error(not_loaded).
same(_) -> erlang:nif_error(not_loaded).
fail_with(_) -> erlang:nif_error(not_loaded).
stepped(_, _) -> erlang:nif_error(not_loaded).
wrapped(_, _) -> erlang:nif_error(not_loaded).

p(T) -> io:format("~p~n", [T]).

%% an exception with its arguments' sizes instead of the (large) arguments
short({'EXIT', {Reason, [{M, F, Args, _} | _]}}) -> {Reason, M, F, [byte_size(A) || A <- Args, is_binary(A)]}.

main() ->
    Small = <<"small binary">>,
    Big = list_to_binary([I rem 251 || I <- lists:seq(1, 100000)]),
    <<_:3/binary, Sub:50000/binary, _/binary>> = Big,
    p(sum(Small, x)),
    p(sum(Big, Big =:= Big)),
    p(sum(Sub, Small)),
    p([sum(B, 0) || B <- [Big, Sub, Small, <<>>]]),
    {S1, C1} = slice(Big, 1000, 3000),
    p({S1 =:= C1, byte_size(S1), sum(S1, 0)}),
    {Bs, _} = same(Big),
    p(Bs =:= Big),
    p(try fail_with(Sub) catch error:{failed, Raised} -> Raised =:= Sub end),
    p(short(catch slice(Big, 99999, 10))),
    %% continuations: the binary is used after the first downcall returned
    Want = element(1, sum(Big, 0)),
    [p({F, stepped(Big, F) =:= {Want, binary:part(Big, 0, 8)}}) || F <- [0, 1, 2]],
    p(stepped(Sub, 1) =:= {element(1, sum(Sub, 0)), binary:part(Sub, 0, 8)}),
    [p({w, F, wrapped(Big, F) =:= {Want, binary:part(Big, 0, 8)}}) || F <- [0, 1, 2]],
    %% many processes, garbage being made meanwhile
    Self = self(),
    Ps = [spawn(fun() ->
                    B = list_to_binary([(I * K) rem 256 || I <- lists:seq(1, 20000 + K)]),
                    _ = [lists:seq(1, 1000) || _ <- lists:seq(1, 50)],
                    R = [stepped(B, K rem 3) =:= {element(1, sum(B, K)), binary:part(B, 0, 8)} || _ <- lists:seq(1, 20)],
                    Self ! {self(), lists:usort(R)}
                end) || K <- lists:seq(1, 8)],
    p([receive {P, R} -> R end || P <- Ps]),
    ok.
