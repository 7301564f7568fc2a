package org.jbeam.term;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * OTP's hashmap: the hash array mapped trie erts uses for maps of more than 32 keys (erl_map.c).
 * Each level consumes 4 bits of the key's {@link MapHash} hash, lowest bits first; a node holds a
 * 16-bit bitmap and one slot per set bit, in bit order; a slot is a leaf (key, value) or a
 * sub-node. After 8 levels the key is rehashed at depth {@code level / 8}
 * ({@code hashmap_shift_hash}), so distinct keys always separate. The trie shape depends only on
 * the key set, and iteration (depth first, slots in bit order: {@code hashmap_iterator_next})
 * visits keys sorted by their hash nibbles, low nibble first.
 *
 * <p>Nodes are immutable; updates copy the path from the root (O(log n)).
 */
final class Hamt {
    private Hamt() {}

    /** A key-value pair, with the key's level-0 hash. */
    static final class Leaf {
        final Term key, val;
        final int h0;
        Leaf(Term key, Term val, int h0) { this.key = key; this.val = val; this.h0 = h0; }
    }

    /** A bitmap node: {@code slots[i]} is a {@link Leaf} or a {@link Node}. */
    static final class Node {
        final int bitmap;
        final Object[] slots;
        Node(int bitmap, Object[] slots) { this.bitmap = bitmap; this.slots = slots; }

        /** Pushes the children as make_internal_hash does (pairs key-first on pop, last slot popped first). */
        void pushForHash(ArrayDeque<Object> s) {
            for (Object o : slots) {
                if (o instanceof Leaf l) { s.push(l.val); s.push(l.key); } else s.push(o);
            }
        }
    }

    static boolean keyEq(Term a, Term b) {
        return a == b || (!(a instanceof EAtom && b instanceof EAtom) && TermOrder.compareKeys(a, b) == 0);
    }

    /** The 4 hash bits that place {@code key} at level {@code lvl}. */
    static int nibble(Term key, int h0, int lvl) {
        if (lvl < 8) return (h0 >>> (lvl << 2)) & 15;
        return (MapHash.hash(key, lvl >>> 3) >>> ((lvl & 7) << 2)) & 15;
    }

    static Leaf find(Node root, Term key, int h0) {
        Node n = root;
        for (int lvl = 0; ; lvl++) {
            int bit = 1 << nibble(key, h0, lvl);
            if ((n.bitmap & bit) == 0) return null;
            Object o = n.slots[Integer.bitCount(n.bitmap & (bit - 1))];
            if (o instanceof Leaf l) return l.h0 == h0 && keyEq(l.key, key) ? l : null;
            n = (Node) o;
        }
    }

    /** The node with key set to val; {@code n} itself if unchanged. {@code added[0]} is set when the key is new. */
    static Node put(Node n, Leaf nl, int lvl, boolean[] added) {
        int bit = 1 << nibble(nl.key, nl.h0, lvl);
        int idx = Integer.bitCount(n.bitmap & (bit - 1));
        if ((n.bitmap & bit) == 0) {
            Object[] s = new Object[n.slots.length + 1];
            System.arraycopy(n.slots, 0, s, 0, idx);
            s[idx] = nl;
            System.arraycopy(n.slots, idx, s, idx + 1, n.slots.length - idx);
            added[0] = true;
            return new Node(n.bitmap | bit, s);
        }
        Object o = n.slots[idx], r;
        if (o instanceof Leaf l) {
            if (l.h0 == nl.h0 && keyEq(l.key, nl.key)) {
                if (l.val == nl.val) return n;
                r = new Leaf(l.key, nl.val, l.h0);
            } else {
                r = pair(l, nl, lvl + 1);
                added[0] = true;
            }
        } else {
            r = put((Node) o, nl, lvl + 1, added);
            if (r == o) return n;
        }
        Object[] s = n.slots.clone();
        s[idx] = r;
        return new Node(n.bitmap, s);
    }

    /** The smallest subtree holding two leaves with distinct keys, from level lvl. */
    private static Node pair(Leaf a, Leaf b, int lvl) {
        int na = nibble(a.key, a.h0, lvl), nb = nibble(b.key, b.h0, lvl);
        if (na == nb) return new Node(1 << na, new Object[] {pair(a, b, lvl + 1)});
        return new Node((1 << na) | (1 << nb), na < nb ? new Object[] {a, b} : new Object[] {b, a});
    }

    /**
     * Removes key: {@code n} itself when absent; otherwise the new subtree, which below the root
     * collapses to its only leaf (as OTP's hashmap_delete keeps the trie minimal).
     */
    static Object remove(Node n, Term key, int h0, int lvl) {
        int bit = 1 << nibble(key, h0, lvl);
        if ((n.bitmap & bit) == 0) return n;
        int idx = Integer.bitCount(n.bitmap & (bit - 1));
        Object o = n.slots[idx];
        if (o instanceof Leaf l) {
            if (!(l.h0 == h0 && keyEq(l.key, key))) return n;
            if (n.slots.length == 2 && lvl > 0 && n.slots[1 - idx] instanceof Leaf other) return other;
            Object[] s = new Object[n.slots.length - 1];
            System.arraycopy(n.slots, 0, s, 0, idx);
            System.arraycopy(n.slots, idx + 1, s, idx, s.length - idx);
            return new Node(n.bitmap & ~bit, s);
        }
        Object r = remove((Node) o, key, h0, lvl + 1);
        if (r == o) return n;
        if (r instanceof Leaf && n.slots.length == 1 && lvl > 0) return r;
        Object[] s = n.slots.clone();
        s[idx] = r;
        return new Node(n.bitmap, s);
    }

    /** The trie of distinct-keyed leaves (at least 2). */
    static Node build(Leaf[] leaves) {
        Leaf[] a = leaves.clone();
        Arrays.sort(a, Hamt::trieCompare);
        return (Node) build(a, 0, a.length, 0, true);
    }

    private static Object build(Leaf[] a, int lo, int hi, int lvl, boolean root) {
        if (hi - lo == 1 && !root) return a[lo];
        int bitmap = 0, count = 0;
        int[] nibs = new int[hi - lo];
        for (int i = lo; i < hi; i++) {
            int nb = nibble(a[i].key, a[i].h0, lvl);
            nibs[i - lo] = nb;
            if ((bitmap & (1 << nb)) == 0) { bitmap |= 1 << nb; count++; }
        }
        Object[] slots = new Object[count];
        int k = 0;
        for (int i = lo; i < hi; ) {
            int j = i;
            while (j < hi && nibs[j - lo] == nibs[i - lo]) j++;
            slots[k++] = build(a, i, j, lvl + 1, false);
            i = j;
        }
        return new Node(bitmap, slots);
    }

    /** Iteration order: hash nibbles compared from the lowest, rehashing after 8 levels. */
    static int trieCompare(Leaf a, Leaf b) {
        int ha = a.h0, hb = b.h0;
        for (int depth = 1; ; depth++) {
            if (ha != hb) return Integer.compareUnsigned(nibbleReverse(ha), nibbleReverse(hb));
            if (depth > 64) return TermOrder.compareKeys(a.key, b.key); // never in practice
            ha = MapHash.hash(a.key, depth);
            hb = MapHash.hash(b.key, depth);
        }
    }

    /** The hash with its 8 nibbles in reverse order (lowest nibble most significant). */
    private static int nibbleReverse(int h) {
        int x = Integer.reverseBytes(h);
        return ((x & 0x0F0F0F0F) << 4) | ((x >>> 4) & 0x0F0F0F0F);
    }

    /** Writes the leaves in iteration order into ks/vs from index i; returns the next index. */
    static int collect(Node n, Term[] ks, Term[] vs, int i) {
        for (Object o : n.slots) {
            if (o instanceof Leaf l) { ks[i] = l.key; vs[i] = l.val; i++; }
            else i = collect((Node) o, ks, vs, i);
        }
        return i;
    }
}
