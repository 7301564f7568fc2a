-module(nif_libs).
%% OTP's own NIF libraries (crypto.so, asn1rt_nif.so) loaded unmodified through the erl_nif layer.
-export([main/0]).
main() ->
    io:format("~p~n", [crypto:hash(sha256, <<"hello">>)]),
    io:format("~p~n", [crypto:hash(md5, "iolist" ++ [<<"data">>])]),
    S0 = crypto:hash_init(sha),
    S1 = crypto:hash_update(S0, <<"abc">>),
    S2 = crypto:hash_update(S1, <<"def">>),
    io:format("~p~n", [crypto:hash_final(S2)]),
    io:format("~p~n", [crypto:mac(hmac, sha256, <<"key">>, <<"data">>)]),
    io:format("~p~n", [byte_size(crypto:strong_rand_bytes(16))]),
    io:format("~p~n", [catch crypto:hash(no_such_algorithm, <<>>)]),
    io:format("~p~n", [asn1rt_nif:encode_ber_tlv({1, <<"abc">>})]),
    io:format("~p~n", [asn1rt_nif:decode_ber_tlv(<<48,3,2,1,5>>)]),
    ok.
