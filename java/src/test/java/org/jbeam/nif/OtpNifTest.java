package org.jbeam.nif;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.ErlOracle;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * OTP's own NIF libraries, unmodified, loaded through libjbeam_nif: asn1rt_nif.so (BER TLV
 * encode/decode) and crypto.so (hashes over OpenSSL), compared with the real erl.
 */
class OtpNifTest {
    static Term chars(String s) { return NifTestNifTest.chars(s); }
    static EBitString bin(int... b) { return NifTestNifTest.bin(b); }
    static ESmall i(long v) { return ESmall.of(v); }
    static ETuple t(Term... e) { return ETuple.of(e); }
    static Term l(Term... e) { return ECons.of(e); }

    @Test void asn1rtNif() {
        NifLibrary lib = NifLibrary.load(NifTestLibs.otpNif("asn1", "asn1rt_nif"), "asn1rt_nif", i(1));
        NifFunction enc = lib.function("encode_ber_tlv", 1), dec = lib.function("decode_ber_tlv_raw", 1);
        assertNotNull(enc); assertNotNull(dec);
        byte[] big = new byte[300];
        for (int k = 0; k < big.length; k++) big[k] = (byte) k;
        // encode_ber_tlv/1 takes {Tag, Value} with Value a binary or a list of TLVs (asn1rt_nif.erl passes it through).
        List<Term> encArgs = List.of(
                t(i(16), l(t(i(2), bin(5)), t(i(4), bin(97, 98, 99)))),
                t(i(4), bin()),
                t(i(131072 + 30), EBitString.of(big)),
                t(i(65536 + 16), l(t(i(1), bin(255)), t(i(16), l(t(i(2), bin(1, 0))), t(i(128 + 65536 * 2), bin(0))))),
                t(i(31), bin(1)),
                t(i(200), bin(1, 2)),
                l(bin(1)),
                t(i(16), l(t(i(2), i(5)))));
        // decode_ber_tlv/1 takes the encoded binary (decode_ber_tlv_raw is the NIF).
        List<Term> decArgs = List.of(
                bin(48, 8, 2, 1, 5, 4, 3, 97, 98, 99), bin(4, 0), bin(4, 0, 99, 100), bin(48, 128, 2, 1, 5, 0, 0),
                bin(31, 129, 0, 1, 7), bin(4, 5, 1), bin(), bin(48, 130, 1, 0), bin(0x9F, 0x81, 0x48, 0x01, 0x2A),
                bin(0x30, 0x0D, 0x04, 0x0B, 104, 101, 108, 108, 111, 32, 119, 111, 114, 108, 100));
        List<ErlOracle.Call> calls = new ArrayList<>();
        for (Term a : encArgs) calls.add(new ErlOracle.Call("asn1rt_nif", "encode_ber_tlv", a));
        for (Term a : decArgs) calls.add(new ErlOracle.Call("asn1rt_nif", "decode_ber_tlv", a));
        List<String> expected = ErlOracle.run(calls);
        List<String> failures = new ArrayList<>();
        for (int k = 0; k < encArgs.size(); k++) {
            Term a = encArgs.get(k);
            String got = ErlOracle.canon(() -> enc.call(null, a));
            if (!got.equals(expected.get(k))) failures.add("encode " + a + "\n erl:   " + expected.get(k) + "\n jbeam: " + got);
        }
        for (int k = 0; k < decArgs.size(); k++) {
            Term a = decArgs.get(k);
            // asn1rt_nif:decode_ber_tlv/1: {error, Reason} from the NIF becomes exit({error, {asn1, Reason}})
            String got = ErlOracle.canon(() -> {
                Term r = dec.call(null, a);
                if (r instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == EAtom.ERROR)
                    throw org.jbeam.runtime.ErlangException.exit(t(EAtom.ERROR, t(EAtom.of("asn1"), tu.get(1))));
                return r;
            });
            String exp = expected.get(encArgs.size() + k);
            if (!got.equals(exp)) failures.add("decode " + a + "\n erl:   " + exp + "\n jbeam: " + got);
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
    }

    @Test void cryptoHashes() {
        Path so = NifTestLibs.otpNif("crypto", "crypto");
        String p = so.toString();
        Term info = t(i(302), EBitString.ofUtf8(p.substring(0, p.length() - 3)), EAtom.FALSE);
        NifLibrary lib = NifLibrary.load(so, "crypto", info);
        NifFunction hash = lib.function("hash_nif", 2), init = lib.function("hash_init_nif", 1),
                update = lib.function("hash_update_nif", 2), fin = lib.function("hash_final_nif", 1);
        // crypto's RSA key generation moves itself to a dirty CPU scheduler (enif_schedule_nif);
        // with no process to suspend (here) the continuation runs inline, in a VM on the dirty pool.
        // (pbkdf2_hmac_nif is a plain NIF in OTP 25's crypto: flags 0, no rescheduling.)
        long dirty = NifLibrary.dirtyJobs();
        Term key = lib.function("rsa_generate_key_nif", 2).call(null, i(1024), EBitString.of(new byte[] {1, 0, 1}));
        org.junit.jupiter.api.Assertions.assertTrue(key instanceof ECons, "rsa key: " + key);
        org.junit.jupiter.api.Assertions.assertEquals(dirty + 1, NifLibrary.dirtyJobs());
        org.junit.jupiter.api.Assertions.assertEquals(0, lib.function("pbkdf2_hmac_nif", 5).flags);
        byte[] large = new byte[100_000];
        for (int k = 0; k < large.length; k++) large[k] = (byte) (k * 7);
        List<Term> inputs = List.of(bin(), EBitString.ofLatin1("abc"), EBitString.ofLatin1("The quick brown fox jumps over the lazy dog"),
                EBitString.of(large));
        List<EAtom> algs = List.of(EAtom.of("sha256"), EAtom.of("sha"), EAtom.of("md5"), EAtom.of("sha512"));
        List<ErlOracle.Call> calls = new ArrayList<>();
        for (EAtom alg : algs) for (Term in : inputs) calls.add(new ErlOracle.Call("crypto", "hash", alg, in));
        calls.add(new ErlOracle.Call("crypto", "hash", EAtom.of("no_such_hash"), bin()));
        List<String> expected = ErlOracle.run(calls);
        List<String> failures = new ArrayList<>();
        int k = 0;
        for (EAtom alg : algs) for (Term in : inputs) {
            String got = ErlOracle.canon(() -> hash.call(null, alg, in));
            if (!got.equals(expected.get(k))) failures.add("hash_nif " + alg + "\n erl:   " + expected.get(k) + "\n jbeam: " + got);
            // incremental: init, two updates (the state is a resource), final
            String inc = ErlOracle.canon(() -> {
                Term st = init.call(null, alg);
                EBitString b = (EBitString) in;
                int half = b.byteSize() / 2;
                st = update.call(null, st, b.sub(0, half));
                st = update.call(null, st, b.sub(half, b.byteSize() - half));
                return fin.call(null, st);
            });
            if (!inc.equals(expected.get(k))) failures.add("hash_init/update/final " + alg + "\n erl:   " + expected.get(k) + "\n jbeam: " + inc);
            k++;
        }
        String bad = ErlOracle.canon(() -> hash.call(null, EAtom.of("no_such_hash"), bin()));
        assertTrue(expected.get(k).startsWith("{error,{badarg,"), expected.get(k));
        assertTrue(bad.startsWith("{error,{badarg,") || bad.startsWith("{error,{notsup,"), bad);
        assertEquals(List.of(), failures, String.join("\n", failures));
    }
}
