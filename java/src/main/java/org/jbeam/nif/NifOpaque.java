package org.jbeam.nif;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.term.Term;

/**
 * Terms C cannot look into (pids, ports, references, funs, unaligned bitstrings) cross the
 * boundary as immediates carrying an id into this table, so they stay valid in any env (an
 * ErlNifPid kept by a NIF remains usable). Equal terms get the same id.
 * Entries are never removed (see ADR 0006: a known leak bounded by the distinct such terms
 * passed to NIFs).
 */
final class NifOpaque {
    private NifOpaque() {}

    static final int PID = 1, PORT = 2, REF = 3, FUN = 4, OTHER = 5;

    private static final ConcurrentHashMap<Term, Long> IDS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Long, Term> TERMS = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT = new AtomicLong(1);

    static long id(Term t) {
        Long id = IDS.get(t);
        if (id != null) return id;
        return IDS.computeIfAbsent(t, k -> {
            long n = NEXT.getAndIncrement();
            TERMS.put(n, k);
            return n;
        });
    }

    static Term term(long id) {
        Term t = TERMS.get(id);
        if (t == null) throw new IllegalStateException("unknown opaque term id " + id);
        return t;
    }

    static int kind(Term t) {
        if (t.isPid()) return PID;
        if (t.isPort()) return PORT;
        if (t.isRef()) return REF;
        if (t.isFun()) return FUN;
        return OTHER;
    }
}
