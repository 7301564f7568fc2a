package org.jbeam.inet;

import static org.jbeam.ProgramRun.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jbeam.ProgramRun.Out;
import org.jbeam.io.PollRing;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Both socket backends (ADR 0016) run OTP's gen_tcp/gen_udp code the same way: the socket differential
 * programs (tests/erl/inet_*.erl; DifferentialTest runs them on the default backend, io_uring where it
 * works) again on bin/jbeam forced to the NIO selector ({@code JBEAM_JAVA_OPTS=-Djbeam.io=threads}) and,
 * where io_uring works, forced to it, each compared with erl. The backend in use is checked through
 * {@code erlang:system_info({jbeam, socket_backend})}, so a silent fallback cannot pass for coverage.
 */
class SocketBackendsTest {
    /** JBEAM_JAVA_OPTS per backend, with the name system_info must then report. */
    private static List<String[]> backends() {
        List<String[]> l = new ArrayList<>();
        l.add(new String[] {"-Djbeam.io=threads", "nio"});
        if (PollRing.unavailableReason() == null) l.add(new String[] {"-Djbeam.io=uring", "io_uring"});
        return l;
    }

    @TestFactory
    Stream<DynamicTest> socketProgramsOnEachBackend() throws IOException {
        List<Path> beams;
        try (Stream<Path> s = Files.list(BEAMS)) {
            beams = s.filter(p -> p.getFileName().toString().matches("inet_.*\\.beam")).sorted().toList();
        }
        assertTrue(beams.size() >= 7, "socket differential programs missing from " + BEAMS);
        return beams.stream().flatMap(b -> {
            String mod = b.getFileName().toString().replace(".beam", "");
            return backends().stream().map(be -> DynamicTest.dynamicTest(mod + " " + be[1], () -> {
                String[] args = {"-run", mod, "main", "-s", "erlang", "halt"};
                Out expected = run(cmd("erl", args), null), actual = run(cmd(JBEAM, args), be[0]);
                assertEquals(expected.stdout(), actual.stdout(), mod + " on " + be[1] + ": stdout differs from erl\n" + actual.stderr());
                assertEquals(expected.status(), actual.status(), mod + ": exit status differs from erl");
            }));
        });
    }

    @Test
    void backendIsVisible() throws Exception {
        String[] q = {"-eval", "{ok, L} = gen_tcp:listen(0, []), gen_tcp:close(L), "
                + "io:format(\"~p~n\", [erlang:system_info({jbeam, socket_backend})]), halt()."};
        for (String[] be : backends()) {
            Out o = run(cmd(JBEAM, q), be[0] + " -Djbeam.io.log=true");
            assertEquals(be[1] + "\n", o.stdout(), o.stderr());
            assertTrue(o.stderr().contains("jbeam socket backend: " + be[1]), o.stderr());
        }
        Out auto = run(cmd(JBEAM, q), null);
        assertEquals(PollRing.unavailableReason() == null ? "io_uring\n" : "nio\n", auto.stdout(), auto.stderr());
        assertEquals("", auto.stderr(), "the backend line is printed only under a debug flag");
        Out nio = run(cmd(JBEAM, q), "-Djbeam.inet.poll=nio");
        assertEquals("nio\n", nio.stdout(), "-Djbeam.inet.poll chooses for sockets alone");
    }
}
