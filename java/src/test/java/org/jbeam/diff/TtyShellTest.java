package org.jbeam.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The interactive shell on a terminal (erts' tty_sl driver, {@code org.jbeam.tty}): the same
 * keystrokes (editing with arrows and backspace, history, tab completion, UTF-8 output) give
 * the same bytes on the terminal as erl, escape sequences included. tests/pty/shell_keys.py
 * drives both on a pseudo-terminal; the banner line (erl's and jbeam's system version) is left out.
 */
class TtyShellTest {
    private static String run(String exe) throws Exception {
        Path out = Files.createTempFile("tty", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder("python3", "tests/pty/shell_keys.py", exe);
            pb.redirectOutput(out.toFile());
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) p.destroyForcibly();
            String s = Files.readString(out, java.nio.charset.StandardCharsets.ISO_8859_1);
            return s.substring(s.indexOf('\n') + 1); // without the banner line
        } finally {
            Files.deleteIfExists(out);
        }
    }

    @Test
    void sameTerminalBytesAsErl() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "python3 drives the pseudo-terminal");
        String expected = run("erl");
        String actual = run(DifferentialTest.JBEAM.toString());
        assertEquals(expected, actual);
        org.junit.jupiter.api.Assertions.assertTrue(expected.contains("[b,a]"), "the session ran to its end: " + expected);
    }
}
