package org.jbeam.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jbeam.term.EBitString;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;
import org.junit.jupiter.api.Test;

/**
 * ADR 0044: read results are allocated without zeroing under the build's JVM options, and a short
 * read's array never shows bytes the read did not write (real files, real preadv2 fast path).
 */
class FreshArraysTest {
    @Test
    void readArraysAreUninitialisedUnderTheBuildsOptions() {
        // surefire's argLine, like scripts/jvm-options.sh, exports jdk.internal.misc: without it
        // reads silently fall back to zeroed arrays and lose ADR 0044's gain.
        assertTrue(FreshArrays.uninitialised(), "jdk.internal.misc not exported to the class path");
        byte[] a = FreshArrays.bytes(100);
        assertEquals(100, a.length);
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
                assertEquals(65536, arr.length);
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
