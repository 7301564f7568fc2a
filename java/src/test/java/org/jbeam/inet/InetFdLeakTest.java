package org.jbeam.inet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The tcp_inet emulation releases OS sockets: bin/jbeam opens and closes 100 listen/connect/accept
 * triples and lets 50 socket-owning processes exit, counting its own /proc/self/fd before and after.
 */
class InetFdLeakTest {
    @Test
    void socketsDoNotLeakDescriptors() throws Exception {
        Path beams = Path.of(System.getProperty("jbeam.erlTests", "target/erl-tests"));
        if (!Files.exists(beams.resolve("inet_fd_leak.beam"))) return; // compiled with the differential suite
        Path out = Files.createTempFile("fdleak", ".out");
        Process p = new ProcessBuilder(Path.of("bin/jbeam").toAbsolutePath().toString(), "-noshell", "-pa", beams.toString(),
                "-eval", "N0 = inet_fd_leak:nfd(), inet_fd_leak:main(), io:format(\"~p~n\", [inet_fd_leak:nfd() - N0]), halt().")
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String[] lines = Files.readString(out).trim().split("\n");
        assertEquals("leak true", lines[0]);
        // The poll set's own descriptors (selector epoll + wakeup pipe) are all that may remain.
        assertTrue(Integer.parseInt(lines[1].trim()) <= 4, "fds grew by " + lines[1]);
        Files.deleteIfExists(out);
    }
}
