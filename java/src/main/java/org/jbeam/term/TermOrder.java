package org.jbeam.term;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * OTP's total term order and its two equalities.
 * <ul>
 * <li>{@link #compare}: the order of {@code <}, {@code =<}, {@code lists:sort} ({@code 1 == 1.0}).
 * <li>{@link #compareKeys}: map-key order: like term order, but every integer sorts before every
 * float, so {@code 1} and {@code 1.0} are distinct keys.
 * <li>{@link #eq}: {@code ==}; {@link Object#equals}: {@code =:=}.
 * </ul>
 */
public final class TermOrder {
    /** This node's name once alive (set by the distribution): local identifiers compare under it. */
    public static volatile EAtom localNode = EAtom.NONODE;

    private static EAtom named(EAtom node) { return node == EAtom.NONODE ? localNode : node; }

    private TermOrder() {}

    public static boolean eq(Term a, Term b) { return compare(a, b) == 0; }

    public static int compare(Term a, Term b) { return cmp(a, b, false); }

    public static int compareKeys(Term a, Term b) { return cmp(a, b, true); }

    private static int cmp(Term a, Term b, boolean exact) {
        while (true) {
            if (a == b) return 0;
            int ta = a.typeOrder(), tb = b.typeOrder();
            if (ta != tb) return ta < tb ? -1 : 1;
            switch (ta) {
                case Term.ORDER_NUMBER: return compareNumbers((ENumber) a, (ENumber) b, exact);
                case Term.ORDER_ATOM: return compareAtoms((EAtom) a, (EAtom) b);
                case Term.ORDER_TUPLE: {
                    ETuple x = (ETuple) a, y = (ETuple) b;
                    if (x.arity() != y.arity()) return x.arity() < y.arity() ? -1 : 1;
                    for (int i = 0; i < x.arity(); i++) {
                        int c = cmp(x.get(i), y.get(i), exact);
                        if (c != 0) return c;
                    }
                    return 0;
                }
                case Term.ORDER_NIL: return 0;
                case Term.ORDER_LIST: {
                    ECons x = (ECons) a, y = (ECons) b;
                    int c = cmp(x.head, y.head, exact);
                    if (c != 0) return c;
                    a = x.tail; b = y.tail;
                    continue; // iterate on tails: long lists never recurse deeply
                }
                case Term.ORDER_BITSTRING: return compareBits((EBitString) a, (EBitString) b);
                case Term.ORDER_MAP: return compareMaps((EMap) a, (EMap) b, exact);
                case Term.ORDER_PID: {
                    // As erts: the pid data (serial, number) first, then the node's name, then its creation
                    // (global's lockers sort pids of two nodes and must agree on the order).
                    EPid x = (EPid) a, y = (EPid) b;
                    if (x.serial != y.serial) return Integer.compare(x.serial, y.serial);
                    if (x.number != y.number) return Integer.compare(x.number, y.number);
                    if (x.node != y.node) return compareAtoms(named(x.node), named(y.node));
                    return Integer.compare(x.creation, y.creation);
                }
                case Term.ORDER_PORT: {
                    EPort x = (EPort) a, y = (EPort) b;
                    if (x.node != y.node) return compareAtoms(named(x.node), named(y.node));
                    if (x.id != y.id) return Long.compare(x.id, y.id);
                    return Integer.compare(x.creation, y.creation);
                }
                case Term.ORDER_REF: {
                    ERef x = (ERef) a, y = (ERef) b;
                    if (x.node != y.node) return compareAtoms(named(x.node), named(y.node));
                    int n = Math.max(x.idCount(), y.idCount());
                    for (int i = n - 1; i >= 0; i--) {
                        long vx = i < x.idCount() ? x.id(i) & 0xFFFFFFFFL : 0, vy = i < y.idCount() ? y.id(i) & 0xFFFFFFFFL : 0;
                        if (vx != vy) return vx < vy ? -1 : 1;
                    }
                    return Integer.compare(x.creation, y.creation);
                }
                case Term.ORDER_FUN: return compareFuns((EFun) a, (EFun) b, exact);
                default: throw new IllegalStateException("unknown term type " + ta);
            }
        }
    }

    public static int compareAtoms(EAtom a, EAtom b) {
        if (a == b) return 0;
        // OTP compares atom names as sequences of characters (code points).
        String x = a.name, y = b.name;
        int i = 0, j = 0;
        while (i < x.length() && j < y.length()) {
            int cx = x.codePointAt(i), cy = y.codePointAt(j);
            if (cx != cy) return cx < cy ? -1 : 1;
            i += Character.charCount(cx); j += Character.charCount(cy);
        }
        return Integer.compare(x.length() - i, y.length() - j);
    }

    static int compareBits(EBitString a, EBitString b) {
        long na = a.bitSize(), nb = b.bitSize();
        int bytes = (int) (Math.min(na, nb) >>> 3);
        int c = java.util.Arrays.compareUnsigned(a.data, a.offset, a.offset + bytes, b.data, b.offset, b.offset + bytes);
        if (c != 0) return c < 0 ? -1 : 1;
        long rest = Math.min(na, nb) - (long) bytes * 8;
        if (rest > 0) {
            int mask = (0xFF << (8 - rest)) & 0xFF;
            int x = a.data[a.offset + bytes] & mask, y = b.data[b.offset + bytes] & mask;
            if (x != y) return x < y ? -1 : 1;
        }
        return Long.compare(na, nb);
    }

    static int compareMaps(EMap a, EMap b, boolean exact) {
        if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
        for (int i = 0; i < a.size(); i++) {
            int c = compareKeys(a.sortedKeyAt(i), b.sortedKeyAt(i));
            if (c != 0) return c;
        }
        for (int i = 0; i < a.size(); i++) {
            int c = cmp(a.sortedValueAt(i), b.sortedValueAt(i), exact);
            if (c != 0) return c;
        }
        return 0;
    }

    static int compareFuns(EFun a, EFun b, boolean exact) {
        boolean ea = a instanceof EExportFun, eb = b instanceof EExportFun;
        if (ea != eb) return ea ? -1 : 1; // export funs sort before local funs
        if (ea) {
            EExportFun x = (EExportFun) a, y = (EExportFun) b;
            int c = compareAtoms(x.module, y.module);
            if (c != 0) return c;
            c = compareAtoms(x.function, y.function);
            if (c != 0) return c;
            return Integer.compare(x.arity, y.arity);
        }
        ELocalFun x = (ELocalFun) a, y = (ELocalFun) b;
        int c = compareAtoms(x.module, y.module);
        if (c != 0) return c;
        if (x.index != y.index) return Integer.compare(x.index, y.index);
        if (x.oldUniq != y.oldUniq) return Integer.compare(x.oldUniq, y.oldUniq);
        if (x.freeVars.length != y.freeVars.length) return Integer.compare(x.freeVars.length, y.freeVars.length);
        for (int i = 0; i < x.freeVars.length; i++) {
            c = cmp(x.freeVars[i], y.freeVars[i], exact);
            if (c != 0) return c;
        }
        return 0;
    }

    /**
     * Numeric comparison. With {@code exact} (map-key order) every integer sorts before every
     * float, whatever the values, as OTP orders map keys.
     */
    public static int compareNumbers(ENumber a, ENumber b, boolean exact) {
        if (a instanceof ESmall x && b instanceof ESmall y) return Long.compare(x.value, y.value);
        if (a instanceof EFloat x && b instanceof EFloat y) return Double.compare(x.value == 0.0 ? 0.0 : x.value, y.value == 0.0 ? 0.0 : y.value);
        if (a instanceof EInteger x && b instanceof EInteger y) return x.bigValue().compareTo(y.bigValue());
        if (exact) return a instanceof EInteger ? -1 : 1;
        if (a instanceof EFloat f) return -compareIntFloat((EInteger) b, f.value);
        return compareIntFloat((EInteger) a, ((EFloat) b).value);
    }

    private static final double TWO53 = 9007199254740992.0;

    /** Exact comparison of an integer with a double. */
    static int compareIntFloat(EInteger i, double d) {
        if (i instanceof ESmall s && Math.abs(s.value) <= (long) TWO53) return Double.compare((double) s.value, d == 0.0 ? 0.0 : d) ;
        BigInteger bi = i.bigValue();
        return new BigDecimal(bi).compareTo(new BigDecimal(d));
    }
}
