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
 * ADR 0067: slow synchronous writes of a tick or two (a preemption, the first call's linking) keep
 * writes synchronous; stalls adding up to a quarter of the window send them to the ring for a
 * tenth of a second (doubling up to a second while trips keep coming), after which they are
 * synchronous again. Times are given, not waited for, so the rule is
 * checked exactly.
 */
class SlowWriteGuardTest {
    private static final long MS = 1_000_000;

    @BeforeEach @AfterEach
    void clear() { SlowWriteGuard.clear(); }

    /** A write from {@code t} lasting {@code ms}; returns whether it tripped. */
    private static boolean write(long t, long ms) { return SlowWriteGuard.observe(t, t + ms * MS); }

    @Test
    void tickLongPreemptionsDoNotTrip() {
        long t = System.nanoTime() + 10 * MS;
        assertFalse(write(t, 4));
        assertFalse(write(t + 10 * MS, 8));
        assertFalse(write(t + 30 * MS, 4));
        assertFalse(write(t + 40 * MS, 1));        // fast writes are not counted at all
        assertTrue(SlowWriteGuard.allows(t + 50 * MS));
        // 16 ms of stalls in this window; the next window starts afresh.
        assertFalse(write(t + 120 * MS, 8));
        assertFalse(write(t + 130 * MS, 8));
        assertTrue(SlowWriteGuard.allows(t + 140 * MS));
    }

    @Test
    void stallsOfAQuarterOfTheWindowTripForATenthOfASecond() {
        long t = System.nanoTime() + 10 * MS;
        assertFalse(write(t, 8));
        assertFalse(write(t + 20 * MS, 8));
        assertTrue(write(t + 50 * MS, SlowWriteGuard.STALL_NANOS / MS - 16));
        long end = t + 50 * MS + SlowWriteGuard.STALL_NANOS - 16 * MS;
        assertFalse(SlowWriteGuard.allows(end + 1));
        assertFalse(SlowWriteGuard.allows(end + SlowWriteGuard.OFF_MIN_NANOS - 1));
        assertTrue(SlowWriteGuard.allows(end + SlowWriteGuard.OFF_MIN_NANOS));
    }

    /** Trips that follow each other within a second double the time off, up to a second; a quiet second resets it. */
    @Test
    void repeatedTripsStayOffLonger() {
        long stall = SlowWriteGuard.STALL_NANOS / MS + 1;
        long t = System.nanoTime() + 10 * MS, off = SlowWriteGuard.OFF_MIN_NANOS;
        for (int i = 0; i < 6; i++) {
            assertTrue(write(t, stall));
            long end = t + stall * MS;
            assertFalse(SlowWriteGuard.allows(end + off - 1), "trip " + i);
            assertTrue(SlowWriteGuard.allows(end + off), "trip " + i);
            t = end + off + 50 * MS;                 // the next trip comes 50 ms after the path is back
            off = Math.min(2 * off, SlowWriteGuard.OFF_MAX_NANOS);
        }
        assertEquals(SlowWriteGuard.OFF_MAX_NANOS, off);
        // Two seconds without a trip: back to the shortest time off.
        t += 2 * SlowWriteGuard.OFF_MAX_NANOS;
        assertTrue(write(t, stall));
        assertFalse(SlowWriteGuard.allows(t + stall * MS + SlowWriteGuard.OFF_MIN_NANOS - 1));
        assertTrue(SlowWriteGuard.allows(t + stall * MS + SlowWriteGuard.OFF_MIN_NANOS));
    }

    @Test
    void oneLongStallTripsAtOnce() {
        long t = System.nanoTime() + 10 * MS;
        assertTrue(write(t, SlowWriteGuard.STALL_NANOS / MS + 1));
        assertFalse(SlowWriteGuard.allows(t + SlowWriteGuard.STALL_NANOS + 2 * MS));
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
            assertTrue(SlowWriteGuard.observe(now - SlowWriteGuard.STALL_NANOS - MS, now));
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
