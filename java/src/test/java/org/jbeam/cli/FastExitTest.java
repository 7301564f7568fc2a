package org.jbeam.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jbeam.ProgramRun;
import org.junit.jupiter.api.Test;

/**
 * bin/jbeam ends its process with _exit once the node has halted (ADR 0042): the output written
 * just before halt is all there, the status is halt's, jbeam's own exit hooks still run, and the
 * process is gone well before the 300 ms that HotSpot's exit waits for the threads blocked in
 * native calls (here the standard-input reader, stdin being a pipe the test keeps open).
 */
class FastExitTest {
    @Test
    void outputBeforeHaltIsCompleteAndStatusKept() throws Exception {
        // 300 000 bytes, more than the 64 KiB stdout buffer, written right before halt.
        ProgramRun.Out o = ProgramRun.run(List.of(ProgramRun.JBEAM, "-noshell", "-eval",
                "io:put_chars(lists:duplicate(3000, lists:duplicate(99, $x) ++ \"\\n\")), halt(7)."), null);
        assertEquals(7, o.status(), o.stderr());
        assertEquals(300_000, o.stdout().length());
        assertTrue(o.stdout().endsWith("x\n"));
    }

    @Test
    void exitHooksRunBeforeTheProcessEnds() throws Exception {
        // Load statistics are printed by an exit hook (LoadStats): still there with the fast exit,
        // which -D options leave on.
        ProgramRun.Out o = ProgramRun.run(List.of(ProgramRun.JBEAM, "-noshell", "-eval", "halt()."), "-Djbeam.load.stats=true");
        assertEquals(0, o.status(), o.stderr());
        assertTrue(o.stderr().contains("load parse"), o.stderr());
    }

    /** Milliseconds from the last line of output (written at halt) to the end of the process. */
    private static long haltToExitMillis() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ProgramRun.JBEAM, "-noshell", "-eval", "io:format(\"bye~n\"), halt().")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("JBEAM_JAVA_OPTS");
        Process p = pb.start(); // stdin stays an open pipe: jbeam's stdin reader sits in read(2)
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.ISO_8859_1))) {
            assertEquals("bye", r.readLine());
            long t0 = System.nanoTime();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            return (System.nanoTime() - t0) / 1_000_000;
        } finally {
            p.destroyForcibly();
            p.getOutputStream().close();
        }
    }

    @Test
    void processEndsWithoutTheJvmsWaitForNativeThreads() throws Exception {
        // Best of three: a loaded machine can delay any single run, but with the JVM's exit every
        // run takes at least 300 ms here.
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3 && best >= 250; i++) best = Math.min(best, haltToExitMillis());
        assertTrue(best < 250, "halt to process end took " + best + " ms");
    }
}
