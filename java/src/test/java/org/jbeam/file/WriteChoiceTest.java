package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.Term;
import org.junit.jupiter.api.Test;

/**
 * ADR 0049: the choice between synchronous and ring writes by measured latency. The decision rule
 * on given figures, then real 64 KiB writes to a real file: the first epoch is synchronous, the
 * next goes to the ring (the ring's figure is unknown), and every byte lands where it belongs
 * whichever path wrote it.
 */
class WriteChoiceTest {
    @Test
    void cheaperPathWinsUnmeasuredFirstOtherNowAndThen() {
        assertTrue(WriteChoice.decide(0, 0, 1));            // nothing measured: synchronous, as before
        assertFalse(WriteChoice.decide(500, 0, 1));         // ring unmeasured: try it
        assertTrue(WriteChoice.decide(300, 400, 1));
        assertFalse(WriteChoice.decide(400, 300, 1));
        // Near figures: every 16th epoch the other path.
        assertFalse(WriteChoice.decide(300, 400, WriteChoice.EXPLORE_NEAR));
        assertTrue(WriteChoice.decide(400, 300, 2 * WriteChoice.EXPLORE_NEAR));
        // One path over twice the other: explored every 64th epoch only.
        assertTrue(WriteChoice.decide(300, 700, WriteChoice.EXPLORE_NEAR));
        assertFalse(WriteChoice.decide(300, 700, WriteChoice.EXPLORE_FAR));
        assertFalse(WriteChoice.decide(700, 300, WriteChoice.EXPLORE_NEAR));
        assertTrue(WriteChoice.decide(700, 300, WriteChoice.EXPLORE_FAR));
    }

    @Test
    void offByDefault() {
        restore();      // the value the property gives (the other tests turn it on)
        if (System.getProperty("jbeam.io.adaptivewrite") == null) {
            assertFalse(WriteChoice.ADAPTIVE);
            assertTrue(WriteChoice.sync(65536));
            assertFalse(WriteChoice.measured(65536));
        }
    }

    @org.junit.jupiter.api.BeforeEach
    void on() { WriteChoice.ADAPTIVE = true; }

    @org.junit.jupiter.api.AfterEach
    void restore() { WriteChoice.ADAPTIVE = Boolean.getBoolean("jbeam.io.adaptivewrite"); }

    @Test
    void smallWritesAreNeitherMeasuredNorMoved() {
        assertFalse(WriteChoice.measured(WriteChoice.MIN - 1));
        assertTrue(WriteChoice.sync(WriteChoice.MIN - 1));
        assertTrue(WriteChoice.measured(65536));
    }

    @Test
    void secondEpochGoesToTheRingAndDataIsExact() throws Exception {
        Path dir = Files.createTempDirectory("wchoice");
        Path f = dir.resolve("f");
        int n = 3 * WriteChoice.EPOCH, size = 65536;
        byte[] chunk = new byte[size];
        try {
            FileHandle h = FileOps.openUnregistered(f, FileHandle.READ | FileHandle.WRITE);
            FileIo.clearSlowWriteGuard();           // also forgets WriteChoice's figures
            int sync = 0, ring = 0, firstRing = -1;
            for (int i = 0; i < n; i++) {
                java.util.Arrays.fill(chunk, (byte) (i % 251));
                assertTrue(h.acquire());
                FileIo.Op w = FileIo.write(h, -1, new EBitString[] {EBitString.of(chunk.clone())});
                Term t = w.now();
                if (t != null) { assertEquals(EAtom.OK, t); sync++; continue; }
                if (firstRing < 0) firstRing = i;
                ring++;
                CompletableFuture<Term> done = new CompletableFuture<>();
                w.ring(done::complete);
                FileIo.submit();
                assertEquals(EAtom.OK, done.get(30, TimeUnit.SECONDS));
            }
            // A loaded machine may trip the slow-write guard earlier (writes then go to the ring
            // for a second); it can never keep the second epoch synchronous.
            assertTrue(firstRing >= 0 && firstRing <= WriteChoice.EPOCH, "first ring write at " + firstRing);
            assertTrue(sync > 0 && ring > 0, sync + " synchronous, " + ring + " ring");
            h.close();
            byte[] all = Files.readAllBytes(f);
            assertEquals((long) n * size, all.length);
            for (int i = 0; i < n; i++) {
                byte[] want = new byte[size];
                java.util.Arrays.fill(want, (byte) (i % 251));
                assertArrayEquals(want, java.util.Arrays.copyOfRange(all, i * size, (i + 1) * size), "chunk " + i);
            }
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
            FileIo.clearSlowWriteGuard();
        }
    }
}
