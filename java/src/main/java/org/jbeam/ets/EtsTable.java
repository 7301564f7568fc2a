package org.jbeam.ets;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * One ETS table: its options, owner/heir, and the objects. Storage is a concurrent skip list for
 * every type: keyed by term order ({@code ==}) for ordered_set and by exact order ({@code =:=})
 * for set/bag/duplicate_bag, so traversal is stable for all types. A set slot holds the object
 * (an {@link ETuple}); a bag slot holds an immutable {@code Term[]} of objects in OTP's order.
 * Readers are lock-free; writers serialise on the table, so each write is atomic.
 */
public final class EtsTable {
    public enum Type {
        SET, ORDERED_SET, BAG, DUPLICATE_BAG;
        public EAtom atom() { return EAtom.of(name().toLowerCase()); }
    }

    public static final EAtom PUBLIC = EAtom.of("public"), PROTECTED = EAtom.of("protected"), PRIVATE = EAtom.of("private");

    public final Type type;
    public final int keypos;
    /** The table's reference (ets:info(T, id)). */
    public final ERef ref;
    public volatile EAtom name;
    public volatile boolean named;
    public volatile EPid owner;
    /** Heir pid or null for none. */
    public volatile EPid heir;
    public volatile Term heirData = EAtom.NONE;
    public volatile EAtom protection = PROTECTED;
    public final boolean readConcurrency, compressed, decentralizedCounters;
    public final Term writeConcurrency;
    volatile boolean deleted;

    final ConcurrentSkipListMap<Term, Object> map;
    /** Where erts' hash table would put each key (set, bag, duplicate_bag); null for ordered_set. */
    private final HashOrder order;
    private volatile long size;

    /** safe_fixtable: per-process fix counts, and the time of the first fix. */
    final Map<EPid, Integer> fixes = new HashMap<>();
    long fixedAtNanos, fixedAtMillis;

    public EtsTable(Type type, int keypos, ERef ref, EAtom name, boolean named, EPid owner, boolean readConcurrency,
                    Term writeConcurrency, boolean compressed, boolean decentralizedCounters) {
        this.type = type; this.keypos = keypos; this.ref = ref; this.name = name; this.named = named; this.owner = owner;
        this.readConcurrency = readConcurrency; this.writeConcurrency = writeConcurrency; this.compressed = compressed;
        this.decentralizedCounters = decentralizedCounters;
        this.map = new ConcurrentSkipListMap<>(type == Type.ORDERED_SET ? TermOrder::compare : TermOrder::compareKeys);
        this.order = type == Type.ORDERED_SET ? null
                : new HashOrder(writeConcurrency == EAtom.TRUE || writeConcurrency == EAtom.of("auto"));
    }

    /** The keys in walk order (erts' order for hash tables), for select and friends. */
    List<Term> keysInOrder() {
        synchronized (this) { return order.keys(); }
    }

    boolean hashed() { return order != null; }

    /** The key after {@code key} in a hash table's walk order (null at the end), without next/2's badarg. */
    Term nextInOrder(Term key) {
        synchronized (this) { return order.next(key); }
    }

    /** The objects of {@code keys}, key by key. */
    private List<Term> objectsOf(List<Term> keys) {
        List<Term> out = new ArrayList<>();
        for (Term k : keys) out.addAll(Arrays.asList(objectsAt(k)));
        return out;
    }

    /** safe_fixtable's count went from 0 to 1 or back (called under the fixes lock). */
    void fixChanged(boolean isFixed) {
        if (order != null) synchronized (this) { order.setFixed(isFixed); }
    }

    /** The identifier OTP hands out: the name for named tables, otherwise the reference. */
    public Term tid() { return named ? name : ref; }
    public boolean isBag() { return type == Type.BAG || type == Type.DUPLICATE_BAG; }
    public boolean isDeleted() { return deleted; }
    public long size() { return size; }

    public Term keyOf(Term obj) { return ((ETuple) obj).get(keypos - 1); }

    /** True when {@code obj} is a tuple big enough to hold the key. */
    public boolean validObject(Term obj) { return obj instanceof ETuple t && t.arity() >= keypos; }

    // ---- reads ----

    /** Objects stored in a slot value, in order. */
    static Term[] objects(Object slot) { return slot instanceof Term[] a ? a : new Term[] {(Term) slot}; }

    public Term lookup(Term key) {
        Object v = map.get(key);
        return v == null ? ENil.NIL : ECons.of(objects(v));
    }

    /** Objects for {@code key} (empty array when absent). */
    public Term[] objectsAt(Term key) {
        Object v = map.get(key);
        return v == null ? new Term[0] : objects(v);
    }

    public boolean member(Term key) { return map.containsKey(key); }

    private Term firstKeyOf(Map.Entry<Term, Object> e) { return e == null ? null : keyOf(objects(e.getValue())[0]); }

    public Term first() {
        if (order != null) synchronized (this) { return order.first(); }
        return firstKeyOf(map.firstEntry());
    }

    public Term last() { return type == Type.ORDERED_SET ? firstKeyOf(map.lastEntry()) : first(); }

    /** Next key after {@code key}, or null at the end; badarg for a missing key in hash-type tables. */
    public Term next(Term key) {
        if (order != null) {
            synchronized (this) {
                if (!map.containsKey(key) && !order.knows(key)) throw ErlangException.badarg();
                return order.next(key);
            }
        }
        return firstKeyOf(map.higherEntry(key));
    }

    public Term prev(Term key) {
        if (type != Type.ORDERED_SET) return next(key);
        return firstKeyOf(map.lowerEntry(key));
    }

    /** ets:slot/2: the objects in slot I (the I-th key's for ordered_set); '$end_of_table' just past the end, badarg beyond. */
    public Term slot(long i) {
        if (order != null) {
            List<Term> keys;
            synchronized (this) {
                if (i > order.slotCount()) throw ErlangException.badarg();
                keys = order.slot((int) i);
            }
            return keys == null ? null : ECons.of(objectsOf(keys));
        }
        long n = 0;
        for (Object v : map.values()) if (n++ == i) return ECons.of(objects(v));
        if (i == n) return null;
        throw ErlangException.badarg();
    }

    /** Every object, in traversal order. */
    public List<Term> all() {
        if (order != null) return objectsOf(keysInOrder());
        List<Term> out = new ArrayList<>();
        for (Object v : map.values()) out.addAll(Arrays.asList(objects(v)));
        return out;
    }

    // ---- writes (callers have validated the objects) ----

    public synchronized void insert(Term[] objs) {
        if (type == Type.BAG) for (int i = objs.length - 1; i >= 0; i--) put(objs[i]); // OTP inserts bag lists back to front
        else for (Term o : objs) put(o);
    }

    /** insert_new: nothing is inserted when any key is already present. */
    public synchronized boolean insertNew(Term[] objs) {
        for (Term o : objs) if (map.containsKey(keyOf(o))) return false;
        insert(objs);
        return true;
    }

    private void put(Term obj) {
        Term key = keyOf(obj);
        Object old = map.get(key);
        switch (type) {
            case SET, ORDERED_SET -> {
                map.put(key, obj);
                if (old == null) { size++; if (order != null) order.added(key, size); }
            }
            case BAG, DUPLICATE_BAG -> {
                Term[] a = old == null ? new Term[0] : (Term[]) old;
                if (type == Type.BAG) for (Term t : a) if (t.equals(obj)) return;
                Term[] b = Arrays.copyOf(a, a.length + 1);
                b[a.length] = obj;
                map.put(key, b);
                size++;
                if (old == null) order.added(key, size); else order.grow(size);
            }
        }
    }

    /** Replaces the object with the same key (set types; used by update_counter/update_element/select_replace). */
    synchronized void replace(Term obj) {
        Term key = keyOf(obj);
        if (map.put(key, obj) == null) { size++; if (order != null) order.added(key, size); }
    }

    public synchronized boolean delete(Term key) {
        Object old = map.remove(key);
        if (old != null) { size -= objects(old).length; keyGone(key); }
        return true;
    }

    /** After {@code key}'s last object left the table. */
    private void keyGone(Term key) { if (order != null) order.removed(key); }

    public synchronized Term take(Term key) {
        Object old = map.remove(key);
        if (old == null) return ENil.NIL;
        Term[] a = objects(old);
        size -= a.length;
        keyGone(key);
        return ECons.of(a);
    }

    public synchronized void deleteObject(Term obj) {
        Term key = keyOf(obj);
        Object old = map.get(key);
        if (old == null) return;
        Term[] a = objects(old);
        List<Term> keep = new ArrayList<>(a.length);
        for (Term t : a) if (!t.equals(obj)) keep.add(t);
        if (keep.size() == a.length) return;
        size -= a.length - keep.size();
        if (keep.isEmpty()) { map.remove(key); keyGone(key); }
        else map.put(key, keep.toArray(new Term[0]));
    }

    /** Removes exactly this object (select_delete), comparing by identity then equality. */
    synchronized boolean removeObject(Term obj) {
        Term key = keyOf(obj);
        Object old = map.get(key);
        if (old == null) return false;
        if (!isBag()) {
            if (old != obj && !old.equals(obj)) return false;
            map.remove(key);
            size--;
            keyGone(key);
            return true;
        }
        Term[] a = (Term[]) old;
        int idx = -1;
        for (int i = 0; i < a.length && idx < 0; i++) if (a[i] == obj) idx = i;
        for (int i = 0; i < a.length && idx < 0; i++) if (a[i].equals(obj)) idx = i;
        if (idx < 0) return false;
        size--;
        if (a.length == 1) { map.remove(key); keyGone(key); return true; }
        Term[] b = new Term[a.length - 1];
        System.arraycopy(a, 0, b, 0, idx);
        System.arraycopy(a, idx + 1, b, idx, a.length - idx - 1);
        map.put(key, b);
        return true;
    }

    public synchronized long deleteAll() {
        long n = size;
        map.clear();
        size = 0;
        if (order != null) order.clear();
        return n;
    }

    /** Approximate memory in words (ets:info(T, memory)). */
    public long memoryWords() {
        long w = 300;
        for (Object v : map.values()) for (Term t : objects(v)) w += 4 + ((ETuple) t).arity();
        return w;
    }
}
