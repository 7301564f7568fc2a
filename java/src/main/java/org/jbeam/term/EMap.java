package org.jbeam.term;

import java.util.Arrays;

/**
 * An immutable map. Keys are kept sorted in OTP's map-key order ({@link TermOrder#compareKeys}:
 * term order with every integer before every float), so iteration order equals OTP's for flat
 * maps (up to 32 keys). Lookup is a binary search.
 *
 * <p>TODO(issue 2): OTP switches to a HAMT above 32 keys, whose iteration order follows the
 * internal hash; until that is mirrored, {@code maps:to_list} of large maps is in key order.
 */
public final class EMap extends Term {
    public static final EMap EMPTY = new EMap(new Term[0], new Term[0]);

    final Term[] keys;
    final Term[] vals;
    private int hash;

    EMap(Term[] keys, Term[] vals) { this.keys = keys; this.vals = vals; }

    public int size() { return keys.length; }
    public Term keyAt(int i) { return keys[i]; }
    public Term valueAt(int i) { return vals[i]; }

    /** Builds a map from parallel arrays; later duplicates win (as in {@code #{K => V1, K => V2}}). */
    public static EMap of(Term[] ks, Term[] vs) {
        EMap m = EMPTY;
        // Sort indices by key; stable so later duplicates overwrite earlier ones.
        Integer[] idx = new Integer[ks.length];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> TermOrder.compareKeys(ks[a], ks[b]));
        Term[] nk = new Term[ks.length], nv = new Term[ks.length];
        int n = 0;
        for (Integer i : idx) {
            if (n > 0 && TermOrder.compareKeys(nk[n - 1], ks[i]) == 0) { nv[n - 1] = vs[i]; continue; }
            nk[n] = ks[i]; nv[n] = vs[i]; n++;
        }
        if (n == 0) return m;
        return new EMap(Arrays.copyOf(nk, n), Arrays.copyOf(nv, n));
    }

    /** Index of key, or (-(insertion point) - 1). */
    public int indexOf(Term key) {
        // Atoms are equal only when identical: a short identity scan beats comparing names.
        if (key instanceof EAtom && keys.length <= 16) {
            for (int i = 0; i < keys.length; i++) if (keys[i] == key) return i;
        }
        int lo = 0, hi = keys.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = TermOrder.compareKeys(keys[mid], key);
            if (c < 0) lo = mid + 1; else if (c > 0) hi = mid - 1; else return mid;
        }
        return -(lo + 1);
    }

    /** Value for key or null. */
    public Term get(Term key) {
        int i = indexOf(key);
        return i >= 0 ? vals[i] : null;
    }

    public EMap put(Term key, Term val) {
        int i = indexOf(key);
        if (i >= 0) {
            if (vals[i] == val) return this;
            Term[] nv = vals.clone();
            nv[i] = val;
            return new EMap(keys, nv);
        }
        int ins = -i - 1;
        Term[] nk = new Term[keys.length + 1], nv = new Term[keys.length + 1];
        System.arraycopy(keys, 0, nk, 0, ins); System.arraycopy(vals, 0, nv, 0, ins);
        nk[ins] = key; nv[ins] = val;
        System.arraycopy(keys, ins, nk, ins + 1, keys.length - ins); System.arraycopy(vals, ins, nv, ins + 1, keys.length - ins);
        return new EMap(nk, nv);
    }

    /** Replace the value of an existing key; null when the key is absent. */
    public EMap update(Term key, Term val) {
        int i = indexOf(key);
        if (i < 0) return null;
        Term[] nv = vals.clone();
        nv[i] = val;
        return new EMap(keys, nv);
    }

    public EMap remove(Term key) {
        int i = indexOf(key);
        if (i < 0) return this;
        Term[] nk = new Term[keys.length - 1], nv = new Term[keys.length - 1];
        System.arraycopy(keys, 0, nk, 0, i); System.arraycopy(vals, 0, nv, 0, i);
        System.arraycopy(keys, i + 1, nk, i, keys.length - i - 1); System.arraycopy(vals, i + 1, nv, i, keys.length - i - 1);
        return new EMap(nk, nv);
    }

    /** Keys in iteration order (a copy). */
    public Term[] keys() { return keys.clone(); }
    public Term[] values() { return vals.clone(); }

    @Override public int typeOrder() { return ORDER_MAP; }
    @Override public boolean isMap() { return true; }
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof EMap m && Arrays.equals(keys, m.keys) && Arrays.equals(vals, m.vals));
    }
    @Override public int hashCode() {
        int h = hash;
        if (h == 0) { h = Arrays.hashCode(keys) * 31 + Arrays.hashCode(vals); if (h == 0) h = 1; hash = h; }
        return h;
    }
}
