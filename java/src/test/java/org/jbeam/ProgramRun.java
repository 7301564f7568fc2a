package org.jbeam;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper for the backend tests (FileBackendsTest, SocketBackendsTest): runs the same Erlang
 * program on erl or on bin/jbeam with given JVM options, stdin from /dev/null, no crash dump, and
 * returns its output (ISO-8859-1, so bytes compare exactly).
 */
public final class ProgramRun {
    private ProgramRun() {}

    /** The compiled differential programs. */
    public static final Path BEAMS = Path.of(System.getProperty("jbeam.erlTests", "target/erl-tests"));
    public static final String JBEAM = Path.of("bin/jbeam").toAbsolutePath().toString();

    public record Out(String stdout, String stderr, int status) {}

    /** Runs {@code cmd}; {@code javaOpts} (may be null) goes to bin/jbeam as JBEAM_JAVA_OPTS. */
    public static Out run(List<String> cmd, String javaOpts) throws IOException, InterruptedException {
        Path out = Files.createTempFile("prog", ".out"), err = Files.createTempFile("prog", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("ERL_CRASH_DUMP", "/dev/null");
            if (javaOpts != null) pb.environment().put("JBEAM_JAVA_OPTS", javaOpts);
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) { p.destroyForcibly(); return new Out("<timeout>", "", -1); }
            return new Out(Files.readString(out, StandardCharsets.ISO_8859_1), Files.readString(err, StandardCharsets.ISO_8859_1), p.exitValue());
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** {@code exe -noshell -pa BEAMS args...} */
    public static List<String> cmd(String exe, String... args) {
        List<String> l = new ArrayList<>(List.of(exe, "-noshell", "-pa", BEAMS.toString()));
        l.addAll(List.of(args));
        return l;
    }
}
