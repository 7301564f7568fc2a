package org.jbeam.bif;

import java.util.HashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Pure term BIFs of module {@code erlang}: tuples, lists, type tests, term comparison, boolean
 * operators and map guards (erl_bif_*.c / bif.tab). Conversions between atoms, lists and binaries
 * live in {@link ErlangConvBifs}, which this module also registers. Guard-safe BIFs are those of
 * {@code erl_internal:guard_bif/2}, {@code comp_op/2} and {@code bool_op/2} in OTP 25.
 */
public final class ErlangTermBifs implements BifModule {
    static final String M = "erlang";
    /** Largest tuple arity (MAX_ARITY in OTP: 2^24 - 1). */
    public static final int MAX_ARITY = (1 << 24) - 1;

    @Override public void register(BifTable t) {
        t.guard1(M, "length", ErlangTermBifs::length);
        t.guard1(M, "hd", ErlangTermBifs::hd);
        t.guard1(M, "tl", ErlangTermBifs::tl);
        t.guard2(M, "element", ErlangTermBifs::element);
        t.bif3(M, "setelement", ErlangTermBifs::setelement);
        t.guard1(M, "tuple_size", ErlangTermBifs::tupleSize);
        t.guard1(M, "size", ErlangTermBifs::size);
        t.guard1(M, "byte_size", ErlangTermBifs::byteSize);
        t.guard1(M, "bit_size", ErlangTermBifs::bitSize);
        t.bif2(M, "make_tuple", ErlangTermBifs::makeTuple);
        t.bif3(M, "make_tuple", ErlangTermBifs::makeTuple3);
        t.bif2(M, "append_element", ErlangTermBifs::appendElement);
        t.bif1(M, "tuple_to_list", ErlangTermBifs::tupleToList);
        t.bif1(M, "list_to_tuple", ErlangTermBifs::listToTuple);
        t.bif2(M, "++", ErlangTermBifs::append);
        t.bif2(M, "--", ErlangTermBifs::subtract);

        t.guard1(M, "is_atom", (p, a) -> bool(a instanceof EAtom));
        t.guard1(M, "is_binary", (p, a) -> bool(a instanceof EBitString b && b.isBinary()));
        t.guard1(M, "is_bitstring", (p, a) -> bool(a instanceof EBitString));
        t.guard1(M, "is_boolean", (p, a) -> bool(a == EAtom.TRUE || a == EAtom.FALSE));
        t.guard1(M, "is_float", (p, a) -> bool(a instanceof EFloat));
        t.guard1(M, "is_function", (p, a) -> bool(a instanceof EFun));
        t.guard2(M, "is_function", ErlangTermBifs::isFunction2);
        t.guard1(M, "is_integer", (p, a) -> bool(a instanceof EInteger));
        t.guard1(M, "is_list", (p, a) -> bool(a instanceof EList));
        t.guard1(M, "is_map", (p, a) -> bool(a instanceof EMap));
        t.guard1(M, "is_number", (p, a) -> bool(a instanceof ENumber));
        t.guard1(M, "is_pid", (p, a) -> bool(a instanceof EPid));
        t.guard1(M, "is_port", (p, a) -> bool(a instanceof EPort));
        t.guard1(M, "is_reference", (p, a) -> bool(a instanceof ERef));
        t.guard1(M, "is_tuple", (p, a) -> bool(a instanceof ETuple));
        t.guard2(M, "is_record", ErlangTermBifs::isRecord2);
        t.guard3(M, "is_record", ErlangTermBifs::isRecord3);

        t.guard1(M, "map_size", ErlangTermBifs::mapSize);
        t.guard2(M, "map_get", ErlangTermBifs::mapGet);
        t.guard2(M, "is_map_key", ErlangTermBifs::isMapKey);

        t.bif2(M, "min", (p, a, b) -> TermOrder.compare(a, b) <= 0 ? a : b);
        t.bif2(M, "max", (p, a, b) -> TermOrder.compare(a, b) >= 0 ? a : b);

        t.guard1(M, "not", (p, a) -> bool(!truth(a)));
        t.guard2(M, "and", (p, a, b) -> { boolean x = truth(a), y = truth(b); return bool(x && y); });
        t.guard2(M, "or", (p, a, b) -> { boolean x = truth(a), y = truth(b); return bool(x || y); });
        t.guard2(M, "xor", (p, a, b) -> { boolean x = truth(a), y = truth(b); return bool(x ^ y); });

        t.guard2(M, "==", (p, a, b) -> bool(TermOrder.eq(a, b)));
        t.guard2(M, "/=", (p, a, b) -> bool(!TermOrder.eq(a, b)));
        t.guard2(M, "=:=", (p, a, b) -> bool(a.equals(b)));
        t.guard2(M, "=/=", (p, a, b) -> bool(!a.equals(b)));
        t.guard2(M, "<", (p, a, b) -> bool(TermOrder.compare(a, b) < 0));
        t.guard2(M, ">", (p, a, b) -> bool(TermOrder.compare(a, b) > 0));
        t.guard2(M, "=<", (p, a, b) -> bool(TermOrder.compare(a, b) <= 0));
        t.guard2(M, ">=", (p, a, b) -> bool(TermOrder.compare(a, b) >= 0));

        ErlangConvBifs.registerInto(t);
    }

    static EAtom bool(boolean b) { return b ? EAtom.TRUE : EAtom.FALSE; }

    private static boolean truth(Term a) {
        if (a == EAtom.TRUE) return true;
        if (a == EAtom.FALSE) return false;
        throw ErlangException.badarg();
    }

    // ---- lists ----

    public static Term length(ErlProcess p, Term a) {
        int n = ECons.length(a);
        if (n < 0) throw ErlangException.badarg();
        return ESmall.of(n);
    }

    public static Term hd(ErlProcess p, Term a) {
        if (a instanceof ECons c) return c.head;
        throw ErlangException.badarg();
    }

    public static Term tl(ErlProcess p, Term a) {
        if (a instanceof ECons c) return c.tail;
        throw ErlangException.badarg();
    }

    /** {@code A ++ B}: copies the proper list A onto B. */
    public static Term append(ErlProcess p, Term a, Term b) {
        if (a == ENil.NIL) return b;
        Term[] xs = ECons.toArray(a);
        if (xs == null) throw ErlangException.badarg();
        Term r = b;
        for (int i = xs.length - 1; i >= 0; i--) r = new ECons(xs[i], r);
        return r;
    }

    /**
     * {@code A -- B}: for each element of B, removes its first exact ({@code =:=}) occurrence in A.
     * Equivalent to keeping an element of A unless B still has an unconsumed copy of it, so small
     * right sides use a linear scan and larger ones a counting hash map.
     */
    public static Term subtract(ErlProcess p, Term a, Term b) {
        Term[] xs = ECons.toArray(a), ys = ECons.toArray(b);
        if (xs == null || ys == null) throw ErlangException.badarg();
        if (xs.length == 0 || ys.length == 0) return a;
        boolean[] drop = new boolean[xs.length];
        if (ys.length <= 16) {
            for (Term y : ys) {
                for (int i = 0; i < xs.length; i++) {
                    if (!drop[i] && xs[i].equals(y)) { drop[i] = true; break; }
                }
            }
        } else {
            HashMap<Term, int[]> counts = new HashMap<>(ys.length * 2);
            for (Term y : ys) counts.computeIfAbsent(y, k -> new int[1])[0]++;
            for (int i = 0; i < xs.length; i++) {
                int[] c = counts.get(xs[i]);
                if (c != null && c[0] > 0) { c[0]--; drop[i] = true; }
            }
        }
        Term r = ENil.NIL;
        for (int i = xs.length - 1; i >= 0; i--) if (!drop[i]) r = new ECons(xs[i], r);
        return r;
    }

    // ---- tuples ----

    static int index(Term n, int arity) {
        if (n instanceof ESmall s && s.value >= 1 && s.value <= arity) return (int) s.value - 1;
        throw ErlangException.badarg();
    }

    public static Term element(ErlProcess p, Term n, Term t) {
        if (!(t instanceof ETuple tu)) throw ErlangException.badarg();
        return tu.get(index(n, tu.arity()));
    }

    public static Term setelement(ErlProcess p, Term n, Term t, Term v) {
        if (!(t instanceof ETuple tu)) throw ErlangException.badarg();
        return tu.with(index(n, tu.arity()), v);
    }

    public static Term tupleSize(ErlProcess p, Term t) {
        if (t instanceof ETuple tu) return ESmall.of(tu.arity());
        throw ErlangException.badarg();
    }

    public static Term size(ErlProcess p, Term t) {
        if (t instanceof ETuple tu) return ESmall.of(tu.arity());
        if (t instanceof EBitString b) return ESmall.of(b.byteSize());
        throw ErlangException.badarg();
    }

    public static Term byteSize(ErlProcess p, Term t) {
        if (t instanceof EBitString b) return ESmall.of((b.bitSize() + 7) >>> 3);
        throw ErlangException.badarg();
    }

    public static Term bitSize(ErlProcess p, Term t) {
        if (t instanceof EBitString b) return ESmall.of(b.bitSize());
        throw ErlangException.badarg();
    }

    private static int arityArg(Term n) {
        if (n instanceof ESmall s && s.value >= 0 && s.value <= MAX_ARITY) return (int) s.value;
        throw ErlangException.badarg();
    }

    public static Term makeTuple(ErlProcess p, Term n, Term v) {
        int k = arityArg(n);
        Term[] a = new Term[k];
        java.util.Arrays.fill(a, v);
        return ETuple.of(a);
    }

    public static Term makeTuple3(ErlProcess p, Term n, Term v, Term init) {
        int k = arityArg(n);
        Term[] a = new Term[k];
        java.util.Arrays.fill(a, v);
        Term l = init;
        while (l instanceof ECons c) {
            if (!(c.head instanceof ETuple pair) || pair.arity() != 2) throw ErlangException.badarg();
            a[index(pair.get(0), k)] = pair.get(1);
            l = c.tail;
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        return ETuple.of(a);
    }

    public static Term appendElement(ErlProcess p, Term t, Term e) {
        if (!(t instanceof ETuple tu)) throw ErlangException.badarg();
        if (tu.arity() >= MAX_ARITY) throw ErlangException.badarg();
        Term[] a = java.util.Arrays.copyOf(tu.elements(), tu.arity() + 1);
        a[tu.arity()] = e;
        return new ETuple(a);
    }

    public static Term tupleToList(ErlProcess p, Term t) {
        if (!(t instanceof ETuple tu)) throw ErlangException.badarg();
        return ECons.of(tu.elements());
    }

    public static Term listToTuple(ErlProcess p, Term l) {
        Term[] a = ECons.toArray(l);
        if (a == null) throw ErlangException.badarg();
        if (a.length > MAX_ARITY) throw ErlangException.systemLimit();
        return ETuple.of(a);
    }

    // ---- type tests with arguments ----

    public static Term isFunction2(ErlProcess p, Term f, Term arity) {
        if (arity instanceof ESmall s) {
            if (s.value < 0) throw ErlangException.badarg();
            return bool(f instanceof EFun fun && fun.arity() == s.value);
        }
        if (arity instanceof EBig b) {
            if (b.signum() < 0) throw ErlangException.badarg();
            return EAtom.FALSE;
        }
        throw ErlangException.badarg();
    }

    public static Term isRecord2(ErlProcess p, Term t, Term tag) {
        if (!(tag instanceof EAtom)) throw ErlangException.badarg();
        return bool(t instanceof ETuple tu && tu.arity() >= 1 && tu.get(0) == tag);
    }

    public static Term isRecord3(ErlProcess p, Term t, Term tag, Term size) {
        if (!(tag instanceof EAtom) || !(size instanceof ESmall s)) throw ErlangException.badarg();
        return bool(t instanceof ETuple tu && tu.arity() == s.value && tu.arity() >= 1 && tu.get(0) == tag);
    }

    // ---- maps ----

    public static Term mapSize(ErlProcess p, Term m) {
        if (m instanceof EMap map) return ESmall.of(map.size());
        throw ErlangException.badmap(m);
    }

    public static Term mapGet(ErlProcess p, Term k, Term m) {
        if (!(m instanceof EMap map)) throw ErlangException.badmap(m);
        Term v = map.get(k);
        if (v == null) throw ErlangException.badkey(k);
        return v;
    }

    public static Term isMapKey(ErlProcess p, Term k, Term m) {
        if (!(m instanceof EMap map)) throw ErlangException.badmap(m);
        return bool(map.get(k) != null);
    }
}
