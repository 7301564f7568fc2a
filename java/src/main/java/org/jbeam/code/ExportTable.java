package org.jbeam.code;

import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.term.EAtom;

/** The global export table: one {@link Export} per M:F/A ever referenced. */
public final class ExportTable {
    private record Key(EAtom m, EAtom f, int a) {}

    private final ConcurrentHashMap<Key, Export> map = new ConcurrentHashMap<>();

    /** The entry for M:F/A, created (undefined) if absent. */
    public Export get(EAtom m, EAtom f, int arity) {
        return map.computeIfAbsent(new Key(m, f, arity), k -> new Export(k.m, k.f, k.a));
    }

    /** The entry if it exists, else null. */
    public Export find(EAtom m, EAtom f, int arity) { return map.get(new Key(m, f, arity)); }

    public Iterable<Export> all() { return map.values(); }
}
