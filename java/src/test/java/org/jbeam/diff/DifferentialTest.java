package org.jbeam.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential suite: every program in tests/erl (compiled by the real erlc during the build)
 * runs on the real erl and on bin/jbeam with the same command line; stdout and the exit status
 * must be identical. erl's behaviour is the expectation — never edit an expectation by hand.
 *
 * <p>Each program exports {@code main/0}; it is run as {@code -noshell -pa Dir -run Mod main -s erlang halt}.
 */
class DifferentialTest {
    static final Path BEAMS = Path.of(System.getProperty("jbeam.erlTests", "target/erl-tests"));
    static final Path JBEAM = Path.of("bin/jbeam").toAbsolutePath();

    record Outcome(String stdout, int status) {}

    @TestFactory
    Stream<DynamicTest> programs() throws IOException {
        List<Path> beams;
        try (Stream<Path> s = Files.list(BEAMS)) {
            beams = s.filter(p -> p.toString().endsWith(".beam")).sorted().toList();
        }
        return beams.stream().map(b -> {
            String mod = b.getFileName().toString().replace(".beam", "");
            return DynamicTest.dynamicTest(mod, () -> {
                List<String> args = List.of("-noshell", "-pa", BEAMS.toString(), "-run", mod, "main", "-s", "erlang", "halt");
                Outcome expected = run("erl", args);
                Outcome actual = run(JBEAM.toString(), args);
                assertEquals(expected.stdout(), actual.stdout(), mod + ": stdout differs from erl");
                assertEquals(expected.status(), actual.status(), mod + ": exit status differs from erl");
            });
        });
    }

    static Outcome run(String exe, List<String> args) throws IOException, InterruptedException {
        return run(exe, args, new java.io.File("/dev/null"));
    }

    /** Runs {@code exe args} with standard input read from {@code stdin}; stdout and exit status. */
    static Outcome run(String exe, List<String> args, java.io.File stdin) throws IOException, InterruptedException {
        Path out = Files.createTempFile("diff", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(exe), args.stream()).toList());
            pb.redirectOutput(out.toFile());
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.redirectInput(ProcessBuilder.Redirect.from(stdin));
            pb.environment().put("ERL_CRASH_DUMP", "/dev/null");
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Outcome(Files.readString(out, java.nio.charset.StandardCharsets.ISO_8859_1) + "\n<timeout>", -1);
            }
            return new Outcome(Files.readString(out, java.nio.charset.StandardCharsets.ISO_8859_1), p.exitValue());
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
