package org.jbeam.inet;

import static org.jbeam.ProgramRun.JBEAM;
import static org.jbeam.ProgramRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jbeam.ProgramRun.Out;
import org.jbeam.io.PollRing;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Out of descriptors (issue 4's "emfile"): tests/limits/emfile.erl under {@code ulimit -n 256} on erl
 * and on bin/jbeam, on each backend (io_uring with multishot and one-shot receives, the NIO and
 * thread-pool fallback): the same output and exit status. Before this test jbeam raised an internal
 * error (a selector created lazily for the accept timeout), answered einval instead of emfile, and
 * lost the pending connection of an accept that failed.
 */
class EmfileTest {
    static Path beams;

    @BeforeAll
    static void compile() throws Exception {
        beams = Files.createTempDirectory("limits-beams");
        Process c = new ProcessBuilder("erlc", "-o", beams.toString(), "tests/limits/emfile.erl").inheritIO().start();
        assertEquals(0, c.waitFor());
        runtimeJar();
    }

    /**
     * bin/jbeam loads classes from target/jbeam-runtime.jar when no class is newer (as an installed
     * jbeam does); from the class directory, each class load would need a descriptor of its own and
     * fail at emfile. A build that changed classes since the jar was made gets a fresh jar here,
     * made the way scripts/aot-cache.sh makes it (the AOT cache, older than the jar, then goes unused).
     */
    static void runtimeJar() throws Exception {
        Path jar = Path.of("target/jbeam-runtime.jar"), classes = Path.of("target/classes");
        if (Files.exists(jar)) {
            long made = Files.getLastModifiedTime(jar).toMillis();
            try (Stream<Path> s = Files.walk(classes)) {
                if (s.noneMatch(p -> p.toString().endsWith(".class") && p.toFile().lastModified() > made)) return;
            }
        }
        Path tmp = Path.of("target/jbeam-runtime.jar.tmp");
        String javaHome = System.getProperty("java.home");
        Process p = new ProcessBuilder(javaHome + "/bin/jar", "cf", tmp.toString(), "-C", classes.toString(), ".").inheritIO().start();
        assertEquals(0, p.waitFor());
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<String> limited(String exe) {
        return new ArrayList<>(List.of("sh", "-c", "ulimit -n 256 && exec \"$0\" \"$@\"", exe,
                "-noshell", "-pa", beams.toString(), "-run", "emfile", "main", "-s", "erlang", "halt"));
    }

    @TestFactory
    Stream<DynamicTest> sameAsErlOnEachBackend() throws Exception {
        Out expected = run(limited("erl"), null);
        assertEquals(0, expected.status(), "erl: " + expected.stderr());
        assertTrue(expected.stdout().contains("accept: {error,emfile}"), expected.stdout());
        List<String> backends = new ArrayList<>(List.of("-Djbeam.io=threads"));
        if (PollRing.unavailableReason() == null)
            backends.addAll(List.of("-Djbeam.io=uring", "-Djbeam.io=uring -Djbeam.inet.multishot=false"));
        return backends.stream().map(be -> DynamicTest.dynamicTest(be, () -> {
            Out actual = run(limited(JBEAM), be);
            assertEquals(expected.stdout(), actual.stdout(), "stdout differs from erl on " + be + "\n" + actual.stderr());
            assertEquals(expected.status(), actual.status(), "exit status differs from erl on " + be);
        }));
    }
}
