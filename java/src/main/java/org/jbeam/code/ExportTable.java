package org.jbeam.code;

import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.term.EAtom;

/** The global export table: one {@link Export} per M:F/A ever referenced. */
public final class ExportTable {
    /**
     * Explicit equals/hashCode: a record's are linked through invokedynamic on first use, which the
     * AOT cache does not pre-link, and run slowly until compiled; the loader hashes a key per import.
     */
    private record Key(EAtom m, EAtom f, int a) {
        @Override public boolean equals(Object o) { return o instanceof Key k && k.m == m && k.f == f && k.a == a; }
        @Override public int hashCode() { return (m.index * 31 + f.index) * 31 + a; }
    }

    /** Presized: boot alone registers several thousand BIFs and imports (no resizing while loading). */
    private final ConcurrentHashMap<Key, Export> map = new ConcurrentHashMap<>(8192);

    /**
     * A direct-mapped cache in front of the map for apply's dynamic calls ({@code Mod:send(S, D)} in
     * gen_tcp, every gen_server callback): a hit costs no key allocation and no map hashing. Entries are
     * never removed from the table, so a cached Export stays right; an Export's key fields are final
     * (m, f, arity), so racy reads and writes from several schedulers are safe.
     */
    private final Export[] cacheExports = new Export[CACHE];
    private static final int CACHE = 512;

    /** The entry for M:F/A, created (undefined) if absent. */
    public Export get(EAtom m, EAtom f, int arity) {
        int slot = ((m.index * 31 + f.index) * 31 + arity) & (CACHE - 1);
        Export e = cacheExports[slot];
        if (e != null && e.m == m && e.f == f && e.arity == arity) return e;
        e = map.computeIfAbsent(new Key(m, f, arity), k -> new Export(k.m, k.f, k.a));
        cacheExports[slot] = e;
        return e;
    }

    /** The entry if it exists, else null. */
    public Export find(EAtom m, EAtom f, int arity) { return map.get(new Key(m, f, arity)); }

    public Iterable<Export> all() { return map.values(); }

    public int size() { return map.size(); }
}
