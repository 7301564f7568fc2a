package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.Term;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ADR 0067: a single slow synchronous write (a preemption, the first call's linking) keeps writes
 * synchronous; a second one within the window sends them to the ring for a second, after which
 * they are synchronous again. Times are given, not waited for, so the rule is checked exactly.
 */
class SlowWriteGuardTest {
    private static final long MS = 1_000_000, SLOW = SlowWriteGuard.SLOW_NANOS + 1;

    @BeforeEach @AfterEach
    void clear() { SlowWriteGuard.clear(); }

    @Test
    void oneSlowWriteDoesNotTrip() {
        long t = System.nanoTime() + 10 * MS;
        assertFalse(SlowWriteGuard.observe(t, t + SLOW));
        assertTrue(SlowWriteGuard.allows(t + SLOW));
        // Fast writes are not counted at all.
        assertFalse(SlowWriteGuard.observe(t + SLOW, t + SLOW + SlowWriteGuard.SLOW_NANOS));
        // Another slow write outside the window: still no trip.
        long later = t + SLOW + SlowWriteGuard.WINDOW_NANOS + MS;
        assertFalse(SlowWriteGuard.observe(later, later + SLOW));
        assertTrue(SlowWriteGuard.allows(later + SLOW + 1));
    }

    @Test
    void twoSlowWritesWithinTheWindowTripForASecond() {
        long t = System.nanoTime() + 10 * MS;
        assertFalse(SlowWriteGuard.observe(t, t + SLOW));
        long t2 = t + SLOW + SlowWriteGuard.WINDOW_NANOS / 2;
        assertTrue(SlowWriteGuard.observe(t2 - SLOW, t2));
        assertFalse(SlowWriteGuard.allows(t2 + 1));
        assertFalse(SlowWriteGuard.allows(t2 + SlowWriteGuard.OFF_NANOS - 1));
        assertTrue(SlowWriteGuard.allows(t2 + SlowWriteGuard.OFF_NANOS));
    }

    /** The guard decides the real write path: tripped, a 64 KiB write goes to the ring and lands intact. */
    @Test
    void trippedGuardSendsRealWritesToTheRing() throws Exception {
        Path dir = Files.createTempDirectory("guard");
        Path f = dir.resolve("f");
        byte[] chunk = new byte[65536];
        java.util.Arrays.fill(chunk, (byte) 7);
        try {
            FileHandle h = FileOps.openUnregistered(f, FileHandle.READ | FileHandle.WRITE);
            long now = System.nanoTime();
            SlowWriteGuard.observe(now - 2 * SLOW, now - SLOW);
            assertTrue(SlowWriteGuard.observe(now - SLOW, now));
            assertTrue(h.acquire());
            FileIo.Op w = FileIo.write(h, -1, new EBitString[] {EBitString.of(chunk)});
            assertNull(w.now(), "a write while the guard is tripped must go to the ring");
            CompletableFuture<Term> done = new CompletableFuture<>();
            w.ring(done::complete);
            FileIo.submit();
            assertEquals(EAtom.OK, done.get(30, TimeUnit.SECONDS));
            SlowWriteGuard.clear();
            assertTrue(h.acquire());
            // Cleared, the same write is synchronous again (unless this write itself is slow: then
            // it still finished synchronously, which is what is checked).
            assertEquals(EAtom.OK, FileIo.write(h, -1, new EBitString[] {EBitString.of(chunk)}).now());
            h.close();
            assertEquals(2 * 65536, Files.size(f));
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        }
    }
}
