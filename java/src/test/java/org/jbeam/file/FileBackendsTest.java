package org.jbeam.file;

import static org.jbeam.ProgramRun.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.jbeam.ProgramRun.Out;
import org.jbeam.io.IoUringRing;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Both completion-ring backends run OTP's file code the same way: the file differential programs
 * (tests/erl/file_*.erl, whose default-backend run is in DifferentialTest) again on bin/jbeam
 * forced to the thread-pool backend ({@code JBEAM_JAVA_OPTS=-Djbeam.io=threads}), compared with
 * erl; the backend is visible through {@code erlang:system_info({jbeam, io_backend})} and the
 * debug log line; a process killed while its FIFO read is in flight leaks no descriptor on either.
 */
class FileBackendsTest {
    /**
     * The thread-pool backend with the synchronous page-cache paths off (-Djbeam.io.nowait,
     * -Djbeam.io.syncwrite, ADR 0012), so every read and write of the programs goes through the pool.
     */
    private static final String THREADS = "-Djbeam.io=threads -Djbeam.io.nowait=false -Djbeam.io.syncwrite=0";

    private static List<String> backends() {
        return IoUringRing.unavailableReason() == null ? List.of("threads", "uring") : List.of("threads");
    }

    @TestFactory
    Stream<DynamicTest> fileProgramsOnTheThreadPoolBackend() throws IOException {
        List<Path> beams;
        try (Stream<Path> s = Files.list(BEAMS)) {
            beams = s.filter(p -> p.getFileName().toString().matches("file_.*\\.beam")).sorted().toList();
        }
        assertTrue(beams.size() >= 4, "file differential programs missing from " + BEAMS);
        return beams.stream().map(b -> {
            String mod = b.getFileName().toString().replace(".beam", "");
            return DynamicTest.dynamicTest(mod, () -> {
                String[] args = {"-run", mod, "main", "-s", "erlang", "halt"};
                Out expected = run(cmd("erl", args), null), actual = run(cmd(JBEAM, args), THREADS);
                assertEquals(expected.stdout(), actual.stdout(), mod + " on the threads backend: stdout differs from erl");
                assertEquals(expected.status(), actual.status(), mod + ": exit status differs from erl");
            });
        });
    }

    @Test
    void backendIsVisible() throws Exception {
        String[] q = {"-eval", "io:format(\"~p~n\", [erlang:system_info({jbeam, io_backend})]), halt()."};
        Out threads = run(cmd(JBEAM, q), "-Djbeam.io=threads -Djbeam.io.log=true");
        assertEquals("threads\n", threads.stdout());
        assertTrue(threads.stderr().contains("jbeam I/O backend: threads (forced by -Djbeam.io=threads)"), threads.stderr());
        Out auto = run(cmd(JBEAM, q), null);
        assertEquals(IoUringRing.unavailableReason() == null ? "io_uring\n" : "threads\n", auto.stdout());
        assertEquals("", auto.stderr(), "the backend line is printed only under a debug flag");
    }

    @Test
    void killedFifoReaderReleasesItsDescriptorOnBothBackends() throws Exception {
        Path dir = Files.createTempDirectory("fifo");
        Path fifo = dir.resolve("f");
        try {
            Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
            assertEquals(0, mk.waitFor());
            for (String backend : backends()) {
                Out o = run(cmd(JBEAM, "-eval", "file_fd_leak:fifo_kill(\"" + fifo + "\"), halt()."), "-Djbeam.io=" + backend);
                // held: the in-flight read keeps the descriptor after the owner died; released: its completion closes it
                assertEquals("held 1 released 0\n", o.stdout(), backend + ": " + o.stderr());
            }
            Out erl = run(cmd("erl", "-eval", "file_fd_leak:fifo_kill(\"" + fifo + "\"), halt()."), null);
            assertEquals("held 1 released 0\n", erl.stdout(), "erl itself");
        } finally {
            Files.deleteIfExists(fifo);
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Reads from a FIFO (no page cache: the non-blocking read finds nothing, or part of what the
     * read needs, and the ring waits for the rest) answer as on erl, with the fast paths on
     * (default) and off, on both backends.
     */
    @Test
    void fifoReadsMatchErlWithAndWithoutTheFastPaths() throws Exception {
        Path dir = Files.createTempDirectory("fifo");
        Path fifo = dir.resolve("f");
        try {
            Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
            assertEquals(0, mk.waitFor());
            String[] q = {"-eval", "file_fastpath:fifo(\"" + fifo + "\"), halt()."};
            Out erl = run(cmd("erl", q), null);
            assertEquals("fifo: {ok,<<\"1234567890\">>} {ok,<<\"abcz\">>} {ok,<<\"!\">>}\n", erl.stdout(), "erl itself");
            for (String backend : backends())
                for (String fast : List.of("", " -Djbeam.io.nowait=false -Djbeam.io.syncwrite=0")) {
                    Out o = run(cmd(JBEAM, q), "-Djbeam.io=" + backend + fast);
                    assertEquals(erl.stdout(), o.stdout(), backend + fast + ": " + o.stderr());
                }
        } finally {
            Files.deleteIfExists(fifo);
            Files.deleteIfExists(dir);
        }
    }
}
