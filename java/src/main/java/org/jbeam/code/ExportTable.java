package org.jbeam.code;

import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.term.EAtom;

/** The global export table: one {@link Export} per M:F/A ever referenced. */
public final class ExportTable {
    private record Key(EAtom m, EAtom f, int a) {}

    private final ConcurrentHashMap<Key, Export> map = new ConcurrentHashMap<>();

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
}
