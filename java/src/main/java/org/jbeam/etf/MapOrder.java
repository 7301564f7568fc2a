package org.jbeam.etf;

import java.util.Arrays;

import org.jbeam.term.*;

/**
 * The order in which term_to_binary writes a map's pairs. For flatmaps (up to 32 keys) OTP writes
 * keys in map-key order: term order in which, at every depth, any integer sorts before any float
 * ({@code #{1 => a, 0.5 => b}} is written 1 first). Maps over 32 keys are hashmaps, which OTP
 * writes in the reverse of their iteration order (as maps:to_list/1 lists them).
 */
final class MapOrder {
    private MapOrder() {}

    static int[] encodeOrder(EMap m) {
        int n = m.size();
        if (m.isHashmap()) {
            int[] o = new int[n];
            for (int i = 0; i < n; i++) o[i] = n - 1 - i;
            return o;
        }
        Integer[] idx = new Integer[n];
        boolean sorted = true;
        for (int i = 0; i < n; i++) {
            idx[i] = i;
            if (i > 0 && compare(m.keyAt(i - 1), m.keyAt(i)) > 0) sorted = false;
        }
        if (!sorted) Arrays.sort(idx, (a, b) -> compare(m.keyAt(a), m.keyAt(b)));
        int[] o = new int[n];
        for (int i = 0; i < n; i++) o[i] = idx[i];
        return o;
    }

    /** OTP's map-key order (erts_cmp with exact number typing). */
    static int compare(Term a, Term b) {
        while (true) {
            if (a == b) return 0;
            if (a instanceof ENumber x && b instanceof ENumber y) {
                boolean fa = x instanceof EFloat, fb = y instanceof EFloat;
                if (fa != fb) return fa ? 1 : -1;
                return TermOrder.compare(a, b);
            }
            int ta = a.typeOrder(), tb = b.typeOrder();
            if (ta != tb) return ta < tb ? -1 : 1;
            switch (a) {
                case ETuple x -> {
                    ETuple y = (ETuple) b;
                    if (x.arity() != y.arity()) return x.arity() < y.arity() ? -1 : 1;
                    for (int i = 0; i < x.arity(); i++) {
                        int c = compare(x.get(i), y.get(i));
                        if (c != 0) return c;
                    }
                    return 0;
                }
                case ECons x -> {
                    ECons y = (ECons) b;
                    int c = compare(x.head, y.head);
                    if (c != 0) return c;
                    a = x.tail; b = y.tail;
                }
                case EMap x -> {
                    EMap y = (EMap) b;
                    if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
                    if (x.isHashmap()) { // same size: both hashmaps; compare in key order
                        for (int i = 0; i < x.size(); i++) {
                            int c = compare(x.sortedKeyAt(i), y.sortedKeyAt(i));
                            if (c != 0) return c;
                        }
                        for (int i = 0; i < x.size(); i++) {
                            int c = compare(x.sortedValueAt(i), y.sortedValueAt(i));
                            if (c != 0) return c;
                        }
                        return 0;
                    }
                    int[] ox = encodeOrder(x), oy = encodeOrder(y);
                    for (int i = 0; i < ox.length; i++) {
                        int c = compare(x.keyAt(ox[i]), y.keyAt(oy[i]));
                        if (c != 0) return c;
                    }
                    for (int i = 0; i < ox.length; i++) {
                        int c = compare(x.valueAt(ox[i]), y.valueAt(oy[i]));
                        if (c != 0) return c;
                    }
                    return 0;
                }
                default -> { return TermOrder.compareKeys(a, b); }
            }
        }
    }
}
