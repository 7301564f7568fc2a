package org.jbeam.bif;

import java.math.BigInteger;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The atomics module's NIFs and erts_internal:counters_* (erl_bif_atomics.c, erl_bif_counters.c).
 * An array is named by a "magic" reference: a reference with a tag word, mapped to its
 * AtomicLongArray. Arrays stay registered for the node's lifetime (OTP frees them with the last
 * reference; jbeam cannot observe that), and survive term_to_binary round trips as in OTP.
 */
public final class AtomicsBifs implements BifModule {
    /** Third id word of atomics/counters references (runtime make_ref/0 references have 0). */
    private static final int TAG = 0x7A70_0000;
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ConcurrentHashMap<ERef, Arr> ARRAYS = new ConcurrentHashMap<>();
    private static final BigInteger TWO64 = BigInteger.ONE.shiftLeft(64);
    private static final BigInteger MIN_INCR = BigInteger.ONE.shiftLeft(63).negate(), MAX_INCR = TWO64.subtract(BigInteger.ONE);

    /** One array; {@code counters} marks erts_internal:counters_new arrays (always signed). */
    private record Arr(AtomicLongArray a, boolean signed, boolean counters) {}

    @Override public void register(BifTable t) {
        t.bif2("erts_internal", "atomics_new", (p, n, opts) -> {
            if (!(opts instanceof ESmall o)) throw ErlangException.badarg();
            return create(n, (o.value & 1) != 0, false);
        });
        t.bif3("atomics", "put", (p, r, i, v) -> { Arr a = arr(r, false); a.a.set(ix(a, i), value(a, v)); return EAtom.OK; });
        t.bif2("atomics", "get", (p, r, i) -> { Arr a = arr(r, false); return out(a, a.a.get(ix(a, i))); });
        t.bif3("atomics", "add", (p, r, i, v) -> { Arr a = arr(r, false); a.a.addAndGet(ix(a, i), incr(v)); return EAtom.OK; });
        t.bif3("atomics", "add_get", (p, r, i, v) -> { Arr a = arr(r, false); return out(a, a.a.addAndGet(ix(a, i), incr(v))); });
        t.bif3("atomics", "exchange", (p, r, i, v) -> { Arr a = arr(r, false); int k = ix(a, i); return out(a, a.a.getAndSet(k, value(a, v))); });
        t.bif4("atomics", "compare_exchange", (p, x) -> {
            Arr a = arr(x[0], false);
            int k = ix(a, x[1]);
            long expect = value(a, x[2]), desired = value(a, x[3]);
            long was = a.a.compareAndExchange(k, expect, desired);
            return was == expect ? EAtom.OK : out(a, was);
        });
        t.bif1("atomics", "info", (p, r) -> {
            Arr a = arr(r, false);
            int n = a.a.length();
            return EMap.of(new Term[] {EAtom.of("max"), EAtom.of("memory"), EAtom.of("min"), EAtom.of("size")},
                    new Term[] {a.signed ? ESmall.of(Long.MAX_VALUE) : EInteger.of(MAX_INCR), ESmall.of(40 + 8L * n),
                            a.signed ? ESmall.of(Long.MIN_VALUE) : ESmall.ZERO, ESmall.of(n)});
        });

        t.bif1("erts_internal", "counters_new", (p, n) -> create(n, true, true));
        t.bif2("erts_internal", "counters_get", (p, r, i) -> { Arr a = arr(r, true); return ESmall.of(a.a.get(ix(a, i))); });
        t.bif3("erts_internal", "counters_add", (p, r, i, v) -> { Arr a = arr(r, true); a.a.addAndGet(ix(a, i), incr(v)); return EAtom.OK; });
        t.bif3("erts_internal", "counters_put", (p, r, i, v) -> { Arr a = arr(r, true); a.a.set(ix(a, i), value(a, v)); return EAtom.OK; });
        t.bif1("erts_internal", "counters_info", (p, r) -> {
            Arr a = arr(r, true);
            long n = a.a.length();
            long lines = (8 * n + 63) / 64;
            long mem = 32 + 64 * lines * (p.vm.scheduler.count() + 1);
            return EMap.of(new Term[] {EAtom.of("memory"), EAtom.of("size")}, new Term[] {ESmall.of(mem), ESmall.of(n)});
        });
    }

    private static Term create(Term n, boolean signed, boolean counters) {
        // OTP's limit: the array's byte size must fit its allocator; larger requests are badarg.
        if (!(n instanceof ESmall s) || s.value < 1 || s.value > (1 << 27)) throw ErlangException.badarg();
        long id = NEXT.getAndIncrement();
        ERef ref = new ERef(EAtom.NONODE, 0, new int[] {(int) (id & 0x3FFFF), (int) (id >>> 18), TAG});
        ARRAYS.put(ref, new Arr(new AtomicLongArray((int) s.value), signed, counters));
        return ref;
    }

    private static Arr arr(Term r, boolean counters) {
        Arr a = r instanceof ERef ref && ref.idCount() == 3 && ref.id(2) == TAG ? ARRAYS.get(r) : null;
        if (a == null || a.counters != counters) throw ErlangException.badarg();
        return a;
    }

    private static int ix(Arr a, Term i) {
        if (!(i instanceof ESmall s) || s.value < 1 || s.value > a.a.length()) throw ErlangException.badarg();
        return (int) s.value - 1;
    }

    /** A stored value: int64 for signed arrays, uint64 (as raw bits) for unsigned ones. */
    private static long value(Arr a, Term v) {
        if (v instanceof ESmall s) {
            if (!a.signed && s.value < 0) throw ErlangException.badarg();
            return s.value;
        }
        if (!a.signed && v instanceof EBig b && b.value.signum() > 0 && b.value.bitLength() <= 64) return b.value.longValue();
        throw ErlangException.badarg();
    }

    /** An increment: any integer in -2^63 .. 2^64-1, added modulo 2^64. */
    private static long incr(Term v) {
        if (v instanceof ESmall s) return s.value;
        if (v instanceof EBig b && b.value.compareTo(MIN_INCR) >= 0 && b.value.compareTo(MAX_INCR) <= 0) return b.value.longValue();
        throw ErlangException.badarg();
    }

    private static Term out(Arr a, long v) {
        if (a.signed || v >= 0) return ESmall.of(v);
        return EInteger.of(BigInteger.valueOf(v).add(TWO64));
    }

}
