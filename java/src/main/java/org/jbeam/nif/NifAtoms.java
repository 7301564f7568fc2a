package org.jbeam.nif;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.EAtom;

/**
 * The mapping between jbeam's atoms and the native atom table of libjbeam_nif (whose indexes
 * are what ERL_NIF_TERM atoms carry). An atom is registered natively the first time it crosses
 * the boundary; atoms a NIF creates by name are looked up by index when a result is decoded.
 */
final class NifAtoms {
    private NifAtoms() {}

    /** native index + 1, by EAtom.index (0 = not registered yet). */
    private static volatile int[] byAtom = new int[4096];
    /** EAtom by native index. */
    private static volatile EAtom[] byNative = new EAtom[4096];

    static int index(EAtom a) {
        int[] t = byAtom;
        if (a.index < t.length) { int v = t[a.index]; if (v != 0) return v - 1; }
        return register(a);
    }

    private static synchronized int register(EAtom a) {
        int ix;
        byte[] utf8 = a.utf8();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(Math.max(1, utf8.length));
            MemorySegment.copy(utf8, 0, s, ValueLayout.JAVA_BYTE, 0, utf8.length);
            ix = (int) JbeamNif.ATOM_INTERN.invokeExact(s, (long) utf8.length);
        } catch (Throwable e) { throw new AssertionError(e); }
        int[] t = byAtom;
        if (a.index >= t.length) { t = java.util.Arrays.copyOf(t, Math.max(t.length * 2, a.index + 1)); }
        t[a.index] = ix + 1;
        byAtom = t;
        remember(ix, a);
        return ix;
    }

    private static synchronized void remember(int ix, EAtom a) {
        EAtom[] n = byNative;
        if (ix >= n.length) n = java.util.Arrays.copyOf(n, Math.max(n.length * 2, ix + 1));
        n[ix] = a;
        byNative = n;
    }

    static EAtom atom(int ix) {
        EAtom[] n = byNative;
        if (ix < n.length && n[ix] != null) return n[ix];
        String name;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment len = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment p = (MemorySegment) JbeamNif.ATOM_NAME.invokeExact(ix, len);
            if (p.equals(MemorySegment.NULL)) throw new IllegalStateException("no native atom " + ix);
            long l = len.get(ValueLayout.JAVA_LONG, 0);
            name = new String(p.reinterpret(l).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        } catch (RuntimeException e) { throw e; } catch (Throwable e) { throw new AssertionError(e); }
        EAtom a = EAtom.of(name);
        index(a);   // registers both directions
        return a;
    }
}
