package org.jbeam.term;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * An immutable map, with OTP's two representations. Up to 32 keys it is a flatmap: keys sorted in
 * map-key order ({@link TermOrder#compareKeys}: term order with every integer before every float),
 * lookup by binary search. Above 32 keys it is a hashmap ({@link Hamt}), iterated in OTP's hash-trie
 * order, with O(log n) lookup and update; shrinking to 32 keys makes it flat again, as in OTP.
 *
 * <p>{@link #keyAt}/{@link #valueAt} follow the iteration order of {@code maps:iterator/1},
 * {@code maps:fold/3} and {@code ~p}. OTP builds {@code maps:keys/1}, {@code maps:to_list/1} and
 * term_to_binary's pairs by prepending while iterating, so for a hashmap those are in the reverse of
 * this order (for a flatmap both orders are the sorted one). {@link #sortedKeyAt} gives key order,
 * used by map comparison.
 */
public final class EMap extends Term {
    /** MAP_SMALL_MAP_LIMIT. */
    public static final int FLAT_MAX = 32;
    public static final EMap EMPTY = new EMap(new Term[0], new Term[0]);

    /** Flatmap: the sorted keys and their values; null for a hashmap. */
    final Term[] keys, vals;
    /** Hashmap: the trie root; null for a flatmap. */
    private final Hamt.Node root;
    private final int size;
    /** Hashmap caches: pairs in iteration order and in key order (built on first use). */
    private Pairs iter, sorted;
    private int hash;

    private record Pairs(Term[] k, Term[] v) {}

    private EMap(Term[] keys, Term[] vals) { this.keys = keys; this.vals = vals; this.root = null; this.size = keys.length; }

    private EMap(Hamt.Node root, int size, Pairs sorted) {
        this.keys = null; this.vals = null; this.root = root; this.size = size; this.sorted = sorted;
    }

    public int size() { return size; }
    /** True for OTP's large-map representation (more than 32 keys). */
    public boolean isHashmap() { return root != null; }
    public Term keyAt(int i) { return root == null ? keys[i] : iter().k[i]; }
    public Term valueAt(int i) { return root == null ? vals[i] : iter().v[i]; }
    /** The i-th key in map-key order. */
    public Term sortedKeyAt(int i) { return root == null ? keys[i] : sorted().k[i]; }
    /** The value of {@link #sortedKeyAt}(i). */
    public Term sortedValueAt(int i) { return root == null ? vals[i] : sorted().v[i]; }

    private Pairs iter() {
        Pairs p = iter;
        if (p == null) {
            Term[] k = new Term[size], v = new Term[size];
            Hamt.collect(root, k, v, 0);
            iter = p = new Pairs(k, v);
        }
        return p;
    }

    private Pairs sorted() {
        Pairs p = sorted;
        if (p == null) {
            Pairs it = iter();
            Integer[] idx = new Integer[size];
            for (int i = 0; i < size; i++) idx[i] = i;
            Arrays.sort(idx, (a, b) -> TermOrder.compareKeys(it.k[a], it.k[b]));
            Term[] k = new Term[size], v = new Term[size];
            for (int i = 0; i < size; i++) { k[i] = it.k[idx[i]]; v[i] = it.v[idx[i]]; }
            sorted = p = new Pairs(k, v);
        }
        return p;
    }

    /** Builds a map from parallel arrays; later duplicates win (as in {@code #{K => V1, K => V2}}). */
    public static EMap of(Term[] ks, Term[] vs) {
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
        if (n == 0) return EMPTY;
        return fromSorted(Arrays.copyOf(nk, n), Arrays.copyOf(nv, n));
    }

    /** A map of distinct keys already in map-key order (the arrays are kept). */
    private static EMap fromSorted(Term[] k, Term[] v) {
        if (k.length <= FLAT_MAX) return new EMap(k, v);
        Hamt.Leaf[] leaves = new Hamt.Leaf[k.length];
        for (int i = 0; i < k.length; i++) leaves[i] = new Hamt.Leaf(k[i], v[i], MapHash.hash(k[i], 0));
        return new EMap(Hamt.build(leaves), k.length, new Pairs(k, v));
    }

    /** Flatmap: index of key, or (-(insertion point) - 1). */
    private int indexOf(Term key) {
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
        if (root != null) {
            Hamt.Leaf l = Hamt.find(root, key, MapHash.hash(key, 0));
            return l == null ? null : l.val;
        }
        int i = indexOf(key);
        return i >= 0 ? vals[i] : null;
    }

    public EMap put(Term key, Term val) {
        if (root != null) {
            boolean[] added = new boolean[1];
            Hamt.Node r = Hamt.put(root, new Hamt.Leaf(key, val, MapHash.hash(key, 0)), 0, added);
            return r == root ? this : new EMap(r, added[0] ? size + 1 : size, null);
        }
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
        return fromSorted(nk, nv);
    }

    /** Replace the value of an existing key; null when the key is absent. */
    public EMap update(Term key, Term val) {
        if (root != null) return get(key) == null ? null : put(key, val);
        int i = indexOf(key);
        if (i < 0) return null;
        Term[] nv = vals.clone();
        nv[i] = val;
        return new EMap(keys, nv);
    }

    public EMap remove(Term key) {
        if (root != null) {
            Object r = Hamt.remove(root, key, MapHash.hash(key, 0), 0);
            if (r == root) return this;
            Hamt.Node n = (Hamt.Node) r;
            if (size - 1 > FLAT_MAX) return new EMap(n, size - 1, null);
            Term[] k = new Term[size - 1], v = new Term[size - 1];
            Hamt.collect(n, k, v, 0);
            return of(k, v);
        }
        int i = indexOf(key);
        if (i < 0) return this;
        Term[] nk = new Term[keys.length - 1], nv = new Term[keys.length - 1];
        System.arraycopy(keys, 0, nk, 0, i); System.arraycopy(vals, 0, nv, 0, i);
        System.arraycopy(keys, i + 1, nk, i, keys.length - i - 1); System.arraycopy(vals, i + 1, nv, i, keys.length - i - 1);
        return new EMap(nk, nv);
    }

    /** Keys in iteration order (a copy). */
    public Term[] keys() { return root == null ? keys.clone() : iter().k.clone(); }
    public Term[] values() { return root == null ? vals.clone() : iter().v.clone(); }

    /** For {@link MapHash}: pushes the pairs as make_internal_hash does (the first pair popped first). */
    void pushForHash(ArrayDeque<Object> s) {
        if (root != null) { root.pushForHash(s); return; }
        for (int i = size - 1; i >= 0; i--) { s.push(vals[i]); s.push(keys[i]); }
    }

    @Override public int typeOrder() { return ORDER_MAP; }
    @Override public boolean isMap() { return true; }
    @Override public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof EMap m) || m.size != size) return false;
        if (root == null) return m.root == null && Arrays.equals(keys, m.keys) && Arrays.equals(vals, m.vals);
        // Hashmaps with equal key sets have the same shape, hence the same iteration order.
        return m.root != null && Arrays.equals(iter().k, m.iter().k) && Arrays.equals(iter().v, m.iter().v);
    }
    @Override public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = root == null ? Arrays.hashCode(keys) * 31 + Arrays.hashCode(vals) : Arrays.hashCode(iter().k) * 31 + Arrays.hashCode(iter().v);
            if (h == 0) h = 1;
            hash = h;
        }
        return h;
    }
}
