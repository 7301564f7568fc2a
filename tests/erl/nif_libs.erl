-module(nif_libs).
%% OTP's own NIF libraries (crypto.so, asn1rt_nif.so) loaded unmodified through the erl_nif layer:
%% every result must be byte-identical to erl's.
-export([main/0]).

p(T) -> io:format("~p~n", [T]).

main() ->
    Data = <<"The quick brown fox jumps over the lazy dog">>,
    Big = binary:copy(<<"0123456789abcdef">>, 70000),
    [p({A, crypto:hash(A, Data)}) || A <- [md5, sha, sha224, sha256, sha384, sha512,
                                             sha3_224, sha3_256, sha3_384, sha3_512, blake2b, blake2s, md4, ripemd160]],
    p(crypto:hash(md5, "iolist" ++ [<<"data">>, [$x | <<"y">>]])),
    p(crypto:hash(sha256, <<>>)),
    p(crypto:hash(sha256, Big)),
    p(catch crypto:hash(no_such_algorithm, <<>>)),
    p(catch crypto:hash(sha256, not_iodata)),
    %% streaming hash state resources
    S0 = crypto:hash_init(sha),
    S1 = crypto:hash_update(S0, <<"abc">>),
    S2 = crypto:hash_update(S1, <<"def">>),
    p(crypto:hash_final(S2)),
    p(crypto:hash_final(S1)),   % S1 is unaffected by the later update
    H0 = crypto:hash_init(sha512),
    p(crypto:hash_final(lists:foldl(fun(C, H) -> crypto:hash_update(H, C) end, H0,
                                    [binary:part(Big, I * 1000, 1000) || I <- lists:seq(0, 99)]))),
    %% MACs
    p(crypto:mac(hmac, sha256, <<"key">>, <<"data">>)),
    p(crypto:mac(hmac, sha, <<"key">>, Data)),
    p(crypto:mac(hmac, sha512, binary:copy(<<"k">>, 200), Big)),
    p(crypto:mac(hmac, md5, <<>>, <<>>)),
    p(crypto:macN(hmac, sha256, <<"key">>, <<"data">>, 12)),
    p(crypto:mac(cmac, aes_128_cbc, <<0:128>>, <<"cmac message">>)),
    p(crypto:mac(cmac, aes_256_cbc, binary:copy(<<7>>, 32), Data)),
    M0 = crypto:mac_init(hmac, sha256, <<"key">>),
    M1 = crypto:mac_update(M0, <<"da">>),
    p(crypto:mac_final(crypto:mac_update(M1, <<"ta">>))),
    p(catch crypto:mac(hmac, no_such_hash, <<"k">>, <<"d">>)),
    %% AEAD: encrypt, decrypt, and a failing tag check
    Key16 = <<1:128>>, Key32 = <<2:256>>, IV = <<3:96>>, AAD = <<"header">>,
    lists:foreach(
      fun({Cipher, Key}) ->
              {C, T} = crypto:crypto_one_time_aead(Cipher, Key, IV, Data, AAD, true),
              p({Cipher, C, T}),
              p(crypto:crypto_one_time_aead(Cipher, Key, IV, C, AAD, T, false)),
              <<B, Rest/binary>> = T,
              p(crypto:crypto_one_time_aead(Cipher, Key, IV, C, AAD, <<(B bxor 1), Rest/binary>>, false)),
              p(crypto:crypto_one_time_aead(Cipher, Key, IV, C, <<"other">>, T, false)),
              {C8, T8} = crypto:crypto_one_time_aead(Cipher, Key, IV, <<"short">>, <<>>, 12, true),
              p({C8, T8}),
              p(crypto:crypto_one_time_aead(Cipher, Key, IV, C8, <<>>, T8, false))
      end, [{aes_128_gcm, Key16}, {aes_256_gcm, Key32}, {chacha20_poly1305, Key32}]),
    p(catch crypto:crypto_one_time_aead(aes_128_gcm, <<1,2,3>>, IV, Data, AAD, true)),
    %% crypto_one_time/5
    p(crypto:crypto_one_time(aes_128_ctr, Key16, <<0:128>>, Data, true)),
    p(crypto:crypto_one_time(aes_256_cbc, Key32, <<5:128>>, binary:copy(<<"x">>, 64), true)),
    p(crypto:crypto_one_time(aes_256_cbc, Key32, <<5:128>>,
                             crypto:crypto_one_time(aes_256_cbc, Key32, <<5:128>>, binary:copy(<<"y">>, 32), true), false)),
    p(crypto:crypto_one_time(aes_128_ecb, Key16, <<"sixteen byte blk">>, true)),
    p(crypto:crypto_one_time(chacha20, Key32, <<9:128>>, Data, true)),
    p(crypto:crypto_one_time(aes_128_cbc, Key16, <<0:128>>, Data, [{encrypt, true}, {padding, pkcs_padding}])),
    p(catch crypto:crypto_one_time(aes_128_cbc, Key16, <<0:128>>, <<"not a block multiple">>, true)),
    %% pbkdf2_hmac/5 (a dirty NIF)
    p(crypto:pbkdf2_hmac(sha256, <<"password">>, <<"salt">>, 4096, 32)),
    p(crypto:pbkdf2_hmac(sha, <<"pass">>, <<"NaCl">>, 1000, 20)),
    p(catch crypto:pbkdf2_hmac(sha, "pass", "NaCl", 1000, 20)),
    p(crypto:pbkdf2_hmac(sha512, <<"p">>, <<"s">>, 1, 64)),
    p(catch crypto:pbkdf2_hmac(sha256, <<"p">>, <<"s">>, 0, 32)),
    %% pbkdf2 from 8 processes at once
    Self = self(),
    [spawn(fun() -> Self ! {dk, I, crypto:pbkdf2_hmac(sha256, <<"pw", I>>, <<"salt">>, 2000, 16)} end) || I <- lists:seq(1, 8)],
    p(lists:sort([receive {dk, I, K} -> {I, K} end || I <- lists:seq(1, 8)])),
    %% RSA key generation reschedules itself on a dirty CPU scheduler (enif_schedule_nif)
    {[E, N], Priv} = crypto:generate_key(rsa, {1024, 65537}),
    p({E, byte_size(N), length(Priv)}),
    Sig = crypto:sign(rsa, sha256, Data, Priv),
    p({byte_size(Sig), crypto:verify(rsa, sha256, Data, Sig, [E, N]), crypto:verify(rsa, sha256, <<"other">>, Sig, [E, N])}),
    p(byte_size(crypto:strong_rand_bytes(16))),
    p(byte_size(crypto:strong_rand_bytes(0))),
    p(catch crypto:strong_rand_bytes(-1)),
    p(crypto:exor(<<1,2,3>>, <<3,2,1>>)),
    p(crypto:bytes_to_integer(<<1,0,0>>)),
    %% asn1rt_nif
    p(asn1rt_nif:encode_ber_tlv({1, <<"abc">>})),
    p(asn1rt_nif:encode_ber_tlv({16#20010, [{2, <<5>>}, {4, <<"x">>}]})),
    p(asn1rt_nif:decode_ber_tlv(<<48,3,2,1,5>>)),
    p(asn1rt_nif:decode_ber_tlv(iolist_to_binary(asn1rt_nif:encode_ber_tlv({16#20010, [{2, <<5>>}, {4, Big}]})))),
    p(catch asn1rt_nif:decode_ber_tlv(<<48,5,2,1>>)),
    ok.
