package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;

/**
 * A large file's delete (ADR 0061): the name is gone when delFile returns, the file's reference
 * is held and dropped by the release thread, and the open descriptors of the process do not grow.
 */
class DeferredReleaseTest {
    private static long openFds() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) { return s.count(); }
    }

    @Test
    void largeFilesAreReleasedAfterTheNameIsGone() throws Exception {
        Path dir = Files.createTempDirectory("jbeam_deferred");
        byte[] mib = new byte[1 << 20];
        long fds = openFds(), deferred = DeferredRelease.deferred();
        for (int round = 0; round < 3; round++) {
            Path big = dir.resolve("big" + round);
            try (var ch = Files.newByteChannel(big, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                for (int i = 0; i < 20; i++) ch.write(java.nio.ByteBuffer.wrap(mib));
            }
            long before = DeferredRelease.pending();
            FsOps.delFile(big);
            assertFalse(Files.exists(big), "the name is gone at once");
            assertTrue(DeferredRelease.pending() <= before + (20L << 20));
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (DeferredRelease.pending() > 0 && System.nanoTime() < deadline) Thread.sleep(10);
        assertEquals(0, DeferredRelease.pending(), "released");
        assertEquals(deferred + 3, DeferredRelease.deferred(), "each 20 MiB delete was deferred");
        assertEquals(fds, openFds(), "no descriptor kept");
        // A small file is unlinked as before, nothing pending.
        Path small = Files.writeString(dir.resolve("small"), "x");
        FsOps.delFile(small);
        assertEquals(0, DeferredRelease.pending());
        assertEquals(deferred + 3, DeferredRelease.deferred(), "a small file is not");
        Files.delete(dir);
        assertEquals(10, niceOf("jbeam-file-release"), "the release thread yields to the schedulers");
    }

    /** The nice value (field 19 of /proc/self/task/T/stat) of the thread named {@code name}. */
    private static int niceOf(String name) throws IOException {
        String comm = name.substring(0, Math.min(15, name.length()));   // the kernel keeps 15 bytes
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                if (!Files.readString(t.resolve("comm")).strip().equals(comm)) continue;
                String stat = Files.readString(t.resolve("stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Integer.parseInt(f[16]);   // fields from 3 on: nice is field 19
            }
        }
        throw new AssertionError("no thread " + name);
    }
}
