package org.jbeam.loader;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.jbeam.bif.BifTable;
import org.jbeam.code.ExportTable;
import org.junit.jupiter.api.Test;

/**
 * Mutated real .beam files (bit flips, truncation, overwritten sizes, spliced bytes): loading ends
 * in success or a LoadError, never another exception, a hang or a crash.
 */
class LoaderFuzzTest {
    @Test
    void mutatedBeamsFailCleanly() throws Exception {
        List<Path> beams = InstalledBeamsTest.installedBeams();
        assertTrue(!beams.isEmpty());
        Random rnd = new Random(20261129);
        BifTable bifs = new BifTable();
        ExportTable exports = new ExportTable();
        int ok = 0, rejected = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < 3000; i++) {
            byte[] b = Files.readAllBytes(beams.get(rnd.nextInt(Math.min(beams.size(), 200))));
            b = mutate(b, rnd);
            try {
                Transformer.transform(BeamFile.parse(b), exports, bifs);
                ok++;
            } catch (LoadError e) {
                rejected++;
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError("mutation " + i + " escaped as " + e, e);
            }
        }
        System.out.println("loader fuzz: " + ok + " loaded, " + rejected + " rejected in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        assertTrue(rejected > 0);
    }

    static byte[] mutate(byte[] b, Random rnd) {
        b = b.clone();
        switch (rnd.nextInt(5)) {
            case 0 -> { for (int k = 0; k < 1 + rnd.nextInt(8); k++) { int i = rnd.nextInt(b.length); b[i] ^= (byte) (1 << rnd.nextInt(8)); } }
            case 1 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
            case 2 -> { int i = rnd.nextInt(Math.max(1, b.length - 4)); int v = rnd.nextInt(); for (int k = 0; k < 4 && i + k < b.length; k++) b[i + k] = (byte) (v >>> (8 * k)); }
            case 3 -> { int i = rnd.nextInt(b.length); for (int k = i; k < Math.min(b.length, i + 16); k++) b[k] = (byte) rnd.nextInt(); }
            default -> { int i = 12 + rnd.nextInt(Math.max(1, b.length - 12)); b[Math.min(i, b.length - 1)] = (byte) 0xFF; }
        }
        return b;
    }
}
