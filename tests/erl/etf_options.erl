-module(etf_options).
%% term_to_binary/2 options (compressed, minor_version, deterministic) and binary_to_term/2
%% (safe, used) plus bad external data.
-export([main/0]).
t(F) -> try F() of V -> V catch C:R -> {C, R} end.
p(Tag, F) -> io:format("~s: ~w~n", [Tag, t(F)]).
main() ->
    Terms = [0, 255, 256, -1, 1 bsl 31, -(1 bsl 31) - 1, 1 bsl 64, -(1 bsl 300), 1.5, -0.0, 1.0e300, a, 'é', '☃', "", "abc", [1000],
             [1 | 2], {}, {a, b}, list_to_tuple(lists:seq(1, 300)), <<>>, <<1, 2>>, <<1:3>>, <<1, 2, 3:5>>, #{}, #{a => 1, 1 => a},
             fun lists:map/2, lists:duplicate(20, abc)],
    [p("t2b", fun() -> term_to_binary(T) end) || T <- Terms],
    [p("t2b v1", fun() -> term_to_binary(T, [{minor_version, 1}]) end) || T <- [1.5, -0.0, 'é', '☃', a]],
    [p("t2b v0", fun() -> term_to_binary(T, [{minor_version, 0}]) end) || T <- [1.5, 1.0e300, 0.1]],
    [p("t2b v2", fun() -> term_to_binary(T, [{minor_version, 2}]) end) || T <- ['é', a]],
    [p("compressed", fun() -> B = term_to_binary(T, [compressed]), {byte_size(B), binary_to_term(B) =:= T} end)
     || T <- [lists:duplicate(100, abc), <<0:8000>>, a, lists:seq(1, 1000)]],
    [p("compressed level", fun() -> byte_size(term_to_binary(lists:duplicate(200, x), [{compressed, L}])) end) || L <- [0, 1, 6, 9]],
    p("compressed bad level", fun() -> term_to_binary(a, [{compressed, 10}]) end),
    p("bad option", fun() -> term_to_binary(a, [bogus]) end),
    p("deterministic", fun() -> term_to_binary(#{b => 1, a => 2}, [deterministic]) end),
    p("roundtrip", fun() -> [binary_to_term(term_to_binary(T)) =:= T || T <- Terms] end),
    %% Maps above 32 keys: only order-independent facts (jbeam's key order differs from OTP's HAMT order).
    Big = maps:from_list([{I, I} || I <- lists:seq(1, 40)]),
    p("big map", fun() -> B = term_to_binary(Big), {byte_size(B), binary_to_term(B) =:= Big, erlang:phash2(Big)} end),
    p("used", fun() -> binary_to_term(<<(term_to_binary({a, b}))/binary, "extra">>, [used]) end),
    p("safe new atom", fun() -> binary_to_term(<<131, 100, 0, 20, "no_such_atom_xyz_123">>, [safe]) end),
    p("safe existing", fun() -> binary_to_term(term_to_binary(ok), [safe]) end),
    p("b2t bad option", fun() -> binary_to_term(term_to_binary(ok), [bogus]) end),
    [p("b2t bad", fun() -> binary_to_term(B) end) || B <- [<<>>, <<131>>, <<130, 97, 1>>, <<131, 97>>, <<131, 107, 0, 5, "ab">>,
                                                          <<131, 97, 1, 2>>, <<131, 255>>, <<1:3>>, not_a_binary, <<131, 80, 0, 0, 0, 5, 1, 2>>]],
    p("small atom utf8", fun() -> binary_to_term(<<131, 119, 2, 195, 169>>) end),
    p("atom latin1 ext", fun() -> binary_to_term(<<131, 100, 0, 1, 233>>) end),
    p("string ext", fun() -> binary_to_term(<<131, 107, 0, 3, 1, 2, 3>>) end),
    p("float ext", fun() -> binary_to_term(<<131, 99, "1.50000000000000000000e+00", 0, 0, 0, 0, 0>>) end),
    p("bit binary", fun() -> binary_to_term(<<131, 77, 0, 0, 0, 1, 3, 16#E0>>) end),
    p("external_size", fun() -> [erlang:external_size(T) =:= byte_size(term_to_binary(T)) || T <- Terms] end),
    p("external_size opts", fun() -> erlang:external_size(1.5, [{minor_version, 0}]) end),
    p("phash2", fun() -> [erlang:phash2(T) || T <- Terms] end),
    p("phash2 range", fun() -> [erlang:phash2(T, 97) || T <- Terms] end),
    p("phash", fun() -> [erlang:phash(T, 1 bsl 32) || T <- lists:sublist(Terms, 20)] end),
    ok.
