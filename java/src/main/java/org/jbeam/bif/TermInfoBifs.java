package org.jbeam.bif;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Term introspection natives of erts_internal and erts_debug: term_type/1, cmp_term/2,
 * map_to_tuple_keys/1, erts_debug:same/2 and flat_size/1, plus small erts_internal constants.
 * jbeam has no heap words: flat_size follows OTP's 64-bit layout (erts_flat_size) for numbers,
 * lists, tuples, flatmaps and funs; binaries count as heap binaries up to 64 bytes and as
 * 6-word ProcBins above; maps over 32 keys (HAMTs in OTP) are an estimate.
 */
final class TermInfoBifs {
    private TermInfoBifs() {}

    /** OTP's fixnum range on 64-bit (60-bit signed). */
    static final long MAX_SMALL = (1L << 59) - 1, MIN_SMALL = -(1L << 59);
    /** Largest flatmap; bigger maps are HAMTs in OTP. */
    static final int MAP_SMALL_MAP_LIMIT = 32;

    static void register(BifTable t) {
        t.bif1("erts_internal", "term_type", (p, x) -> EAtom.of(termType(x)));
        t.bif2("erts_internal", "cmp_term", (p, a, b) -> ESmall.of(Integer.signum(TermOrder.compareKeys(a, b))));
        t.bif1("erts_internal", "map_to_tuple_keys", (p, m) -> {
            if (!(m instanceof EMap map)) throw ErlangException.badmap(m);
            if (map.size() > MAP_SMALL_MAP_LIMIT) throw ErlangException.badarg();
            return ETuple.of(map.keys());
        });
        // Children of a HAMT node: jbeam maps are flat, so only OTP's badarg for flatmaps is exact;
        // for maps above 32 keys this raises error:undefined (not implemented).
        t.bif1("erts_internal", "map_hashmap_children", (p, m) -> {
            if (!(m instanceof EMap map) || map.size() <= MAP_SMALL_MAP_LIMIT) throw ErlangException.badarg();
            throw ErlangException.error(EAtom.UNDEFINED);
        });
        t.bif0("erts_internal", "get_creation", p -> p.vm.thisNode == EAtom.NONODE ? EAtom.UNDEFINED : EInteger.of(p.vm.thisCreation & 0xFFFFFFFFL));
        t.bif0("erts_internal", "time_unit", p -> ESmall.of(1_000_000_000L));
        t.bif0("erts_internal", "perf_counter_unit", p -> ESmall.of(1_000_000_000L));
        t.bif2("erts_debug", "same", (p, a, b) -> ErlangTermBifs.bool(a == b || (a.equals(b) && immediate(a))));
        t.bif1("erts_debug", "flat_size", (p, x) -> ESmall.of(flatSize(x)));
    }

    private static boolean immediate(Term t) {
        return t instanceof EAtom || t == ENil.NIL || (t instanceof ESmall s && s.value >= MIN_SMALL && s.value <= MAX_SMALL)
                || (t instanceof EPid pid && pid.node == EAtom.NONODE) || (t instanceof EPort port && port.node == EAtom.NONODE);
    }

    static String termType(Term x) {
        return switch (x) {
            case ESmall s -> s.value >= MIN_SMALL && s.value <= MAX_SMALL ? "fixnum" : "bignum";
            case EBig b -> "bignum";
            case EFloat f -> "hfloat";
            case EAtom a -> "atom";
            case ENil n -> "nil";
            case ECons c -> "list";
            case ETuple tu -> "tuple";
            case EMap m -> m.size() > MAP_SMALL_MAP_LIMIT ? "hashmap" : "flatmap";
            case EBitString b -> binaryKind(b);
            case EPid pid -> pid.node == EAtom.NONODE ? "pid" : "external_pid";
            case EPort port -> port.node == EAtom.NONODE ? "port" : "external_port";
            case ERef r -> r.node == EAtom.NONODE ? "reference" : "external_reference";
            case ELocalFun f -> "fun";
            case EFun f -> "export";
            default -> throw new IllegalStateException("unknown term " + x.getClass());
        };
    }

    /** heap_binary (whole, at most 64 bytes), refc_binary (whole, larger) or sub_binary (a view or bitstring). */
    private static String binaryKind(EBitString b) {
        if (!b.isBinaryAligned() || b.arrayOffset() != 0 || b.array().length != b.byteSize()) return "sub_binary";
        return b.byteSize() <= 64 ? "heap_binary" : "refc_binary";
    }

    static long flatSize(Term x) {
        long n = 0;
        while (true) {
            switch (x) {
                case ECons c -> { n += 2 + flatSize(c.head); x = c.tail; continue; }
                case ESmall s -> { return n + (s.value >= MIN_SMALL && s.value <= MAX_SMALL ? 0 : 2); }
                case EBig b -> { return n + 1 + (b.value.abs().bitLength() + 63) / 64; }
                case EFloat f -> { return n + 2; }
                case ETuple tu -> {
                    if (tu.arity() == 0) return n;
                    n += 1 + tu.arity();
                    for (Term e : tu.elements()) n += flatSize(e);
                    return n;
                }
                case EMap m -> {
                    int k = m.size();
                    for (int i = 0; i < k; i++) n += flatSize(m.keyAt(i)) + flatSize(m.valueAt(i));
                    if (k <= MAP_SMALL_MAP_LIMIT) return n + 3 + k + (k == 0 ? 0 : 1 + k);
                    return n + 2L * k + 2L * k; // estimate: leaf cells plus HAMT nodes
                }
                case EBitString b -> {
                    if (!b.isBinaryAligned() || b.arrayOffset() != 0 || b.array().length != b.byteSize()) return n + 4 + 6;
                    return n + (b.byteSize() <= 64 ? 2 + (b.byteSize() + 7) / 8 : 6);
                }
                case ELocalFun f -> {
                    n += 5 + f.freeVars.length;
                    for (Term e : f.freeVars) n += flatSize(e);
                    return n;
                }
                case EFun f -> { return n + 5; }
                case ERef r -> { return n + (r.node == EAtom.NONODE ? 3 : 5); }
                case EPid pid -> { return n + (pid.node == EAtom.NONODE ? 0 : 5); }
                case EPort port -> { return n + (port.node == EAtom.NONODE ? 0 : 5); }
                default -> { return n; }
            }
        }
    }
}
