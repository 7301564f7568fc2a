package org.jbeam.etf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang:term_to_binary/1,2, term_to_iovec/1,2, binary_to_term/1,2, external_size/1,2,
 * phash/2 and phash2/1,2 with OTP 25's option parsing and badarg cases.
 */
public final class EtfBifs implements BifModule {
    private static final EAtom COMPRESSED = EAtom.of("compressed"), MINOR_VERSION = EAtom.of("minor_version"),
            DETERMINISTIC = EAtom.of("deterministic"), SAFE = EAtom.of("safe"), USED = EAtom.of("used");
    private static final BigInteger TWO32 = BigInteger.ONE.shiftLeft(32);

    /** Resolver used by binary_to_term; the runtime installs one that knows loaded modules. */
    public static volatile FunResolver funResolver = FunResolver.DEFAULT;

    @Override
    public void register(BifTable t) {
        t.bif1("erlang", "term_to_binary", (p, a) -> EBitString.of(TermEncoder.encode(a)));
        t.bif2("erlang", "term_to_binary", (p, a, o) -> {
            int[] opt = encodeOptions(o);
            return EBitString.of(TermEncoder.encode(a, opt[0], opt[1]));
        });
        t.bif1("erlang", "term_to_iovec", (p, a) -> iovec(a, TermEncoder.DEFAULT_MINOR, -1));
        t.bif2("erlang", "term_to_iovec", (p, a, o) -> {
            int[] opt = encodeOptions(o);
            return iovec(a, opt[0], opt[1]);
        });
        t.bif1("erlang", "binary_to_term", EtfBifs::binaryToTerm1);
        t.bif2("erlang", "binary_to_term", EtfBifs::binaryToTerm2);
        t.bif1("erlang", "external_size", (p, a) -> ESmall.of(TermEncoder.externalSize(a, TermEncoder.DEFAULT_MINOR)));
        t.bif2("erlang", "external_size", (p, a, o) -> ESmall.of(TermEncoder.externalSize(a, externalSizeOptions(o))));
        t.bif2("erlang", "phash", (p, a, r) -> ESmall.of(Phash.phash(a, range(r))));
        t.bif1("erlang", "phash2", (p, a) -> ESmall.of(Phash2.phash2(a)));
        t.bif2("erlang", "phash2", (p, a, r) -> ESmall.of(Phash2.phash2(a, range(r))));
    }

    static Term iovec(Term t, int minor, int level) {
        if (level > 0) return EBitString.of(TermEncoder.encode(t, minor, level)); // OTP 25 returns a bare binary here
        List<Term> parts = new ArrayList<>();
        for (byte[] b : TermEncoder.encodeIovec(t, minor, level)) parts.add(EBitString.of(b));
        return ECons.of(parts);
    }

    /** Parses term_to_binary/iovec options into {minor, level}; later options override earlier ones. */
    static int[] encodeOptions(Term opts) {
        int minor = TermEncoder.DEFAULT_MINOR, level = -1;
        Term t = opts;
        while (t instanceof ECons c) {
            Term o = c.head;
            if (o == COMPRESSED) level = TermEncoder.DEFAULT_COMPRESSION;
            else if (o == DETERMINISTIC) { /* maps are always written in one canonical order here */ }
            else if (o instanceof ETuple tu && tu.arity() == 2 && tu.get(1) instanceof ESmall v) {
                if (tu.get(0) == COMPRESSED && v.value >= 0 && v.value <= 9) level = (int) v.value;
                else if (tu.get(0) == MINOR_VERSION && v.value >= 0 && v.value <= 2) minor = (int) v.value;
                else throw ErlangException.badarg();
            } else throw ErlangException.badarg();
            t = c.tail;
        }
        if (t != ENil.NIL) throw ErlangException.badarg();
        return new int[] {minor, level};
    }

    /** external_size/2 accepts only {minor_version, 0 | 1}. */
    static int externalSizeOptions(Term opts) {
        int minor = TermEncoder.DEFAULT_MINOR;
        Term t = opts;
        while (t instanceof ECons c) {
            if (c.head instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == MINOR_VERSION
                    && tu.get(1) instanceof ESmall v && (v.value == 0 || v.value == 1)) minor = (int) v.value;
            else throw ErlangException.badarg();
            t = c.tail;
        }
        if (t != ENil.NIL) throw ErlangException.badarg();
        return minor;
    }

    static Term binaryToTerm1(ErlProcess p, Term bin) {
        if (!(bin instanceof EBitString b) || !b.isBinary()) throw ErlangException.badarg();
        return TermDecoder.decode(b.array(), b.arrayOffset(), b.byteSize(), false, funResolver).term();
    }

    static Term binaryToTerm2(ErlProcess p, Term bin, Term opts) {
        boolean safe = false, used = false;
        Term t = opts;
        while (t instanceof ECons c) {
            if (c.head == SAFE) safe = true;
            else if (c.head == USED) used = true;
            else throw ErlangException.ertsBadarg("badopt");
            t = c.tail;
        }
        if (t != ENil.NIL) throw ErlangException.ertsBadarg("badopt");
        if (!(bin instanceof EBitString b) || !b.isBinary()) throw ErlangException.badarg();
        TermDecoder.Result r = TermDecoder.decode(b.array(), b.arrayOffset(), b.byteSize(), safe, funResolver);
        return used ? ETuple.of(r.term(), ESmall.of(r.used())) : r.term();
    }

    /** A hash range: an integer in 1..2^32. */
    static long range(Term r) {
        if (r instanceof ESmall s && s.value >= 1 && s.value <= (1L << 32)) return s.value;
        if (r instanceof EBig b && b.value.equals(TWO32)) return 1L << 32;
        throw ErlangException.badarg();
    }
}
