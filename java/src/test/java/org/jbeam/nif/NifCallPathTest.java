package org.jbeam.nif;

import java.util.concurrent.atomic.AtomicReference;

import org.jbeam.interp.Interpreter;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.*;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The per-call path of ADR 0026: a process's NIF calls on its scheduler thread keep their call
 * context in that thread's {@link Interpreter} (no ThreadLocal), never in another thread's; a
 * lone resource result is decoded without a reader; a large binary argument read in place at an
 * offset of its parent array is the right slice.
 */
class NifCallPathTest {
    static NifLibrary lib;

    @BeforeAll static void load() { lib = NifLibrary.load(NifTestLibs.testNif(), "jbeam_test_nif", ESmall.of(7)); }

    /** A process "running" in an interpreter of this thread, as on a scheduler. */
    static ErlProcess running(Interpreter it) {
        ErlProcess p = new ErlProcess(null, new EPid(EAtom.NONODE, 4712, 0, 0));
        p.interpreter = it;
        return p;
    }

    @Test void schedulerThreadKeepsItsContextInItsInterpreter() throws Exception {
        Interpreter it = new Interpreter(null, 0);
        ErlProcess p = running(it);
        NifFunction add = lib.function("add", 2);
        assertNull(it.nifSpare);
        assertEquals(ESmall.of(5), add.call2(p, ESmall.of(2), ESmall.of(3)));
        Object spare = it.nifSpare;
        assertInstanceOf(NifCallContext.class, spare, "the all-immediate path returns its context to the interpreter");
        for (int k = 0; k < 1000; k++) assertEquals(ESmall.of(k + 1), add.call2(p, ESmall.of(k), ESmall.of(1)));
        assertSame(spare, it.nifSpare, "one context, reused call after call");
        // the encoding path (a boxed argument, a boxed result) gives it back too
        Term big = ETuple.of(ESmall.of(1), EBitString.ofLatin1("x"));
        assertEquals(big, lib.function("echo", 1).call1(p, big));
        assertSame(spare, it.nifSpare);
        // another thread calling for the same process never takes nor fills this interpreter's slot
        AtomicReference<Object> other = new AtomicReference<>();
        Thread t = new Thread(() -> {
            other.set(NifCallContext.acquire(p));
            ((NifCallContext) other.get()).release();
            other.set(add.call2(p, ESmall.of(40), ESmall.of(2)));
        });
        t.start();
        t.join();
        assertEquals(ESmall.of(42), other.get());
        assertSame(spare, it.nifSpare);
        // without an interpreter (Java callers) the calls still work, through the thread's own spare
        assertEquals(ESmall.of(9), add.call2(null, ESmall.of(4), ESmall.of(5)));
        assertSame(spare, it.nifSpare);
    }

    /**
     * Kept reachable for the whole run: the test library counts destructors in one static counter,
     * which NifRuntimeTest's GC test (same JVM) reads.
     */
    static Term keptResource;

    @Test void loneResourceResultAndResourceInsideTerms() {
        Interpreter it = new Interpreter(null, 0);
        ErlProcess p = running(it);
        Term r = keptResource = lib.function("make_res", 1).call1(p, ESmall.of(77));
        assertInstanceOf(ERef.class, r);
        assertTrue(NifResources.isResource((ERef) r));
        assertEquals(ESmall.of(77), lib.function("get_res", 1).call1(p, r));
        // the same resource inside a term comes back as the same ERef (the reader path)
        Term t = lib.function("echo", 1).call1(p, ETuple.of(r, r));
        assertSame(r, ((ETuple) t).get(0));
        assertSame(r, ((ETuple) t).get(1));
        assertSame(r, lib.function("echo", 1).call1(p, r), "a lone resource result is the live ERef");
    }

    @Test void heapArgumentAtAnOffsetOfItsParent() {
        NifLibrary heap = NifLibrary.load(NifTestLibs.nativeDir().resolve("libjbeam_heap_nif.so"), "jbeam_heap_nif", ENil.NIL);
        assertTrue(heap.heapCalls);
        byte[] data = new byte[300_000];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 13 + (i >> 9));
        EBitString whole = EBitString.of(data);
        NifFunction slice = heap.function("slice", 3);
        // sub-binaries far into the parent (read in place) against a copy of the same bytes (a
        // fresh array, offset 0): slice/3 returns the NIF's view and a copy it made itself
        for (int off : new int[] {0, 1, 4099, 123_457, 299_000 - 2048}) {
            EBitString sub = whole.sub(off, 3000);
            byte[] copy = java.util.Arrays.copyOfRange(data, off, off + 3000);
            ETuple a = (ETuple) slice.call(null, sub, ESmall.of(7), ESmall.of(2500));
            ETuple b = (ETuple) slice.call(null, EBitString.of(copy), ESmall.of(7), ESmall.of(2500));
            assertEquals(b.get(0), a.get(0), "offset " + off);
            assertEquals(EBitString.of(java.util.Arrays.copyOfRange(copy, 7, 7 + 2500)), a.get(0), "offset " + off);
        }
    }
}
