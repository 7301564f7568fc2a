package org.jbeam.ets;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.term.*;

/**
 * The order in which erts walks a set, bag or duplicate_bag table (first/next, select, match,
 * tab2list, slot): erts' linear hash table (erl_db_hash.c) kept as chains of keys, so jbeam visits
 * keys exactly where erts does. Only the order lives here; the objects stay in EtsTable's map.
 *
 * <ul>
 * <li>A key's hash is erts' MAKE_HASH: an atom's name hashed with hashpjw, anything else
 *     {@code make_internal_hash(Key, 0)} (MapHash). (Older erts reduced it modulo 0xEFFFFFFF;
 *     OTP 25 does not, as slot placement of large tables shows.) Atoms inside compound keys
 *     hash by atom index, which jbeam's differ from erts': such keys are placed consistently, but
 *     not where erts puts them.
 * <li>Slot = hash &amp; szm, folded to hash &amp; (szm &gt;&gt; 1) at or beyond nactive. 256 slots to begin with;
 *     when the objects outnumber the slots, up to five slots split per insert (linear hashing,
 *     keeping the chains' relative order). Deletes do not shrink the table (measured on OTP 25:
 *     1000 slots stay after 900 of 1000 keys are deleted); delete_all_objects starts afresh.
 * <li>A new key goes at the end of its chain; a bag's further objects stay with their key.
 * <li>Walks go slot by slot upwards, or for write_concurrency tables in erts' lock stripes
 *     (slots i, i+64, i+128, …, for i = 0..63).
 * <li>While the table is fixed (safe_fixtable, and every foldl/select walk), a deleted key stays in its
 *     chain as erts' "pseudo-deleted" entry: walks skip it, but next/2 from it still works, and a
 *     re-insert of the key revives it in place. Unfixing drops them.
 * </ul>
 * Callers hold the table's lock for every method.
 */
final class HashOrder {
    private static final int FIRST_SLOTS = 256, STRIPES = 64, RESIZE_STEPS = 5;

    private static final class Node {
        final Term key;
        final long hash;
        Node next;
        /** Pseudo-deleted: the key left the table while it was fixed. */
        boolean gone;

        Node(Term key, long hash) { this.key = key; this.hash = hash; }
    }

    private final boolean striped;
    private Node[] slots = new Node[FIRST_SLOTS];
    private int nactive = FIRST_SLOTS, szm = FIRST_SLOTS - 1;
    private boolean fixed;
    private int goneCount;

    HashOrder(boolean striped) { this.striped = striped; }

    /** erts' MAKE_HASH(Key). */
    static long hash(Term key) {
        if (key instanceof EAtom a) return atomHash(a.name);
        return MapHash.internalHash32(key) & 0xFFFFFFFFL;
    }

    /** The atom table's hash of a name (hashpjw over its UTF-8 bytes, two-byte Latin-1 characters as one). */
    private static long atomHash(String name) {
        byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long h = 0;
        for (int i = 0; i < b.length; i++) {
            int v = b[i] & 0xFF;
            if (i + 1 < b.length && (v & 0xFE) == 0xC2 && (b[i + 1] & 0xC0) == 0x80) v = ((v << 6) | (b[++i] & 0x3F)) & 0xFF;
            h = ((h << 4) + v) & 0xFFFFFFFFL;
            long g = h & 0xF0000000L;
            if (g != 0) { h ^= g >>> 24; h ^= g; }
        }
        return h;
    }

    private int ix(long hash) {
        int i = (int) (hash & szm);
        return i >= nactive ? i & (szm >> 1) : i;
    }

    /** A key new to the table, then the object count after the insert. */
    void added(Term key, long objects) {
        long h = hash(key);
        int i = ix(h);
        if (goneCount > 0) {
            Node old = find(slots[i], key);
            if (old != null) { old.gone = false; goneCount--; grow(objects); return; }
        }
        Node n = new Node(key, h);
        if (slots[i] == null) slots[i] = n;
        else {
            Node p = slots[i];
            while (p.next != null) p = p.next;
            p.next = n;
        }
        grow(objects);
    }

    /** A key gone from the table. */
    void removed(Term key) {
        int i = ix(hash(key));
        Node prev = null;
        for (Node p = slots[i]; p != null; prev = p, p = p.next) {
            if (!p.gone && TermOrder.compareKeys(p.key, key) == 0) {
                if (fixed) { p.gone = true; goneCount++; }
                else if (prev == null) slots[i] = p.next;
                else prev.next = p.next;
                break;
            }
        }
    }

    private static Node find(Node chain, Term key) {
        for (Node p = chain; p != null; p = p.next) if (TermOrder.compareKeys(p.key, key) == 0) return p;
        return null;
    }

    /** True when {@code key} is in the table or pseudo-deleted in a fixed one: next/2 may start from it. */
    boolean knows(Term key) { return find(slots[ix(hash(key))], key) != null; }

    /** The table became fixed or unfixed; unfixing drops the pseudo-deleted keys. */
    void setFixed(boolean on) {
        fixed = on;
        if (on || goneCount == 0) return;
        for (int i = 0; i < nactive; i++) {
            Node head = null, tail = null;
            for (Node p = slots[i]; p != null; ) {
                Node nx = p.next;
                p.next = null;
                if (!p.gone) { if (tail == null) head = p; else tail.next = p; tail = p; }
                p = nx;
            }
            slots[i] = head;
        }
        goneCount = 0;
    }

    /** An insert that added an object under a key already there (bags). */
    void grow(long objects) {
        for (int k = 0; k < RESIZE_STEPS && objects > nactive; k++) split();
    }

    void clear() {
        if (fixed) {
            for (int i = 0; i < nactive; i++)
                for (Node p = slots[i]; p != null; p = p.next) if (!p.gone) { p.gone = true; goneCount++; }
            return;
        }
        goneCount = 0;
        slots = new Node[FIRST_SLOTS];
        nactive = FIRST_SLOTS;
        szm = FIRST_SLOTS - 1;
    }

    /** One more slot: the chain of slot nactive's buddy splits between the two, each keeping its order. */
    private void split() {
        int from;
        int mask = szm;
        if (nactive <= mask) from = nactive & (mask >> 1);
        else { from = 0; mask = (mask << 1) | 1; }
        int to = nactive;
        if (to >= slots.length) slots = java.util.Arrays.copyOf(slots, slots.length * 2);
        nactive++;
        szm = mask;
        Node stay = null, stayTail = null, move = null, moveTail = null;
        for (Node p = slots[from]; p != null; ) {
            Node nx = p.next;
            p.next = null;
            if ((int) (p.hash & mask) == from) {
                if (stayTail == null) stay = p; else stayTail.next = p;
                stayTail = p;
            } else {
                if (moveTail == null) move = p; else moveTail.next = p;
                moveTail = p;
            }
            p = nx;
        }
        slots[from] = stay;
        slots[to] = move;
    }

    /** Slot indexes in walk order. */
    private int nextSlot(int i) {
        if (!striped) return i + 1 < nactive ? i + 1 : -1;
        i += STRIPES;
        if (i < nactive) return i;
        i = (i + 1) % STRIPES;
        return i == 0 ? -1 : i;
    }

    /** Every key in walk order. */
    List<Term> keys() {
        List<Term> out = new ArrayList<>();
        for (int i = 0; i >= 0; i = nextSlot(i))
            for (Node p = slots[i]; p != null; p = p.next) if (!p.gone) out.add(p.key);
        return out;
    }

    private static Node live(Node p) {
        while (p != null && p.gone) p = p.next;
        return p;
    }

    Term first() {
        for (int i = 0; i >= 0; i = nextSlot(i)) { Node n = live(slots[i]); if (n != null) return n.key; }
        return null;
    }

    /** The key after {@code key} in walk order (null at the end; {@code key} is in the table or pseudo-deleted). */
    Term next(Term key) {
        int i = ix(hash(key));
        Node at = find(slots[i], key);
        Node n = at == null ? null : live(at.next);
        if (n != null) return n.key;
        for (i = nextSlot(i); i >= 0; i = nextSlot(i)) { n = live(slots[i]); if (n != null) return n.key; }
        return null;
    }

    /** The keys of slot {@code i} as ets:slot/2 lists them (last in the chain first), or null past the last slot. */
    List<Term> slot(int i) {
        if (i >= nactive) return null;
        List<Term> out = new ArrayList<>();
        for (Node p = slots[i]; p != null; p = p.next) if (!p.gone) out.add(0, p.key);
        return out;
    }

    int slotCount() { return nactive; }
}
