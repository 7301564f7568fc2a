package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jbeam.bindings.libc.LibcFiles;
import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;
import org.junit.jupiter.api.Test;

/**
 * ADR 0044: the slow-write guard of the synchronous write path tells a write that slept in the
 * kernel (voluntary context switch: writeback throttling, journal waits) from one that only
 * waited for a CPU (preempted on a loaded machine), with real getrusage(RUSAGE_THREAD) readings
 * around a real sleep; and read results allocated without zeroing never show bytes a short read
 * did not write.
 */
class FileWriteGuardTest {
    private static final long MS = 1_000_000L;

    @Test
    void voluntarySwitchesCountSleepsOnly() throws Exception {
        long a = LibcFiles.voluntarySwitches();
        assertTrue(a >= 0, "getrusage(RUSAGE_THREAD) failed");
        Thread.sleep(5);
        long b = LibcFiles.voluntarySwitches();
        assertTrue(b > a, "a sleep is a voluntary switch: " + a + " -> " + b);
        // Busy: at most preempted, never asleep. A JVM safepoint (GC, handshake) can park the thread
        // in between, so one quiet attempt out of five is what is required.
        boolean quiet = false;
        for (int attempt = 0; attempt < 5 && !quiet; attempt++) {
            long c = LibcFiles.voluntarySwitches(), end = System.nanoTime() + MS, x = 0;
            while (System.nanoTime() < end) x += x * 31 + 1;
            quiet = LibcFiles.voluntarySwitches() == c + (x == 42 ? 1 : 0);
        }
        assertTrue(quiet, "a spinning thread kept counting voluntary switches");
    }

    @Test
    void preemptedSlowWritesKeepThePathAndSleptOnesTripIt() throws Exception {
        FileIo.clearSlowWriteGuard();
        long t0 = System.nanoTime();
        long slow = 10 * MS;    // over -Djbeam.io.syncwrite.slow (2 ms)
        long tripped = FileIo.SLOW_WRITES.sum(), preempted = FileIo.PREEMPTED_WRITES.sum();

        // Unwatched: the first slow write only arms the watch.
        FileIo.slowWriteCheck(t0, t0 + slow, -1);
        assertTrue(FileIo.watching());
        assertFalse(FileIo.syncWritesOff());
        assertEquals(tripped, FileIo.SLOW_WRITES.sum());

        // Watched, no sleep between the readings: preempted, the path stays on (retried: a JVM
        // safepoint between the two readings would count as a sleep).
        for (int attempt = 0; attempt < 5 && FileIo.PREEMPTED_WRITES.sum() == preempted; attempt++) {
            FileIo.clearSlowWriteGuard();
            FileIo.slowWriteCheck(t0, t0 + slow, -1);
            FileIo.slowWriteCheck(t0, t0 + slow, LibcFiles.voluntarySwitches());
        }
        assertFalse(FileIo.syncWritesOff());
        assertEquals(preempted + 1, FileIo.PREEMPTED_WRITES.sum());
        tripped = FileIo.SLOW_WRITES.sum();

        // A fast write never counts, slept or not.
        long nv = LibcFiles.voluntarySwitches();
        Thread.sleep(3);
        FileIo.slowWriteCheck(t0, t0 + MS, nv);
        assertFalse(FileIo.syncWritesOff());

        // Watched and the thread slept: trip.
        FileIo.slowWriteCheck(t0, t0 + slow, nv);
        assertTrue(FileIo.syncWritesOff());
        assertEquals(tripped + 1, FileIo.SLOW_WRITES.sum());

        // While tripped, a small write to a regular file goes to the ring, and still completes.
        Path dir = Files.createTempDirectory("guard");
        Path f = dir.resolve("f");
        try {
            FileHandle h = FileOps.openUnregistered(f, FileHandle.READ | FileHandle.WRITE);
            assertTrue(h.acquire());
            FileIo.Op w = FileIo.write(h, -1, new EBitString[] {EBitString.of(new byte[] {1, 2, 3})});
            assertNull(w.now());
            CompletableFuture<Term> done = new CompletableFuture<>();
            w.ring(done::complete);
            FileIo.submit();
            assertEquals(EAtom.OK, done.get(30, TimeUnit.SECONDS));
            FileIo.clearSlowWriteGuard();
            assertTrue(h.acquire());
            assertEquals(EAtom.OK, FileIo.write(h, -1, new EBitString[] {EBitString.of(new byte[] {4})}).now());
            h.close();
            assertEquals(4, Files.size(f));
        } finally {
            FileIo.clearSlowWriteGuard();
            Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void readArraysAreUninitialisedUnderTheBuildsOptions() {
        // surefire's argLine, like scripts/jvm-options.sh, exports jdk.internal.misc: without it
        // reads silently fall back to zeroed arrays and lose ADR 0044's gain.
        assertTrue(FreshArrays.uninitialised(), "jdk.internal.misc not exported to the class path");
        byte[] a = FreshArrays.bytes(100);
        java.util.Arrays.fill(a, (byte) 0x55);      // what an uninitialised array may hold
        FreshArrays.clearTail(a, 60);
        for (int i = 0; i < 100; i++) assertEquals(i < 60 ? 0x55 : 0, a[i], "byte " + i);
    }

    @Test
    void shortReadsClearTheRestOfTheirArray() throws Exception {
        Path dir = Files.createTempDirectory("short");
        Path f = dir.resolve("f");
        try {
            byte[] data = new byte[40_000];      // over half of 64 KiB: the result is a view of the array
            java.util.Arrays.fill(data, (byte) 7);
            Files.write(f, data);
            FileHandle h = FileOps.openUnregistered(f, FileHandle.READ);
            for (int i = 0; i < 50; i++) {
                assertTrue(h.acquire());
                Term r = FileIo.read(h, 0, 65536).now();
                EBitString b = (EBitString) ((ETuple) r).get(1);
                assertEquals(40_000, b.byteSize());
                byte[] arr = b.array();
                for (int j = 0; j < arr.length; j++) {
                    int inside = j - b.arrayOffset();
                    if (inside < 0 || inside >= 40_000) assertEquals(0, arr[j], "stale byte at " + j);
                    else assertEquals(7, arr[j]);
                }
            }
            h.close();
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        }
    }
}
