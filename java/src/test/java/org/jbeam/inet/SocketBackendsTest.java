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
    /** Two 256-byte provided buffers: most multishot receives end with ENOBUFS and are re-armed (ADR 0062). */
    static final String STARVED = "-Djbeam.io=uring -Djbeam.inet.recvBuffers=2 -Djbeam.inet.recvBuffer=256";

    /**
     * JBEAM_JAVA_OPTS per backend, with the name system_info must then report and a label: the NIO
     * selector; io_uring as it runs by default (multishot receives into the provided-buffer ring where
     * the kernel has them); io_uring with a starved buffer ring; io_uring with one-shot receives into
     * per-socket buffers (kernels before 6.0).
     */
    private static List<String[]> backends() {
        List<String[]> l = new ArrayList<>();
        l.add(new String[] {"-Djbeam.io=threads", "nio", "nio"});
        if (PollRing.unavailableReason() == null) {
            l.add(new String[] {"-Djbeam.io=uring", "io_uring", "io_uring"});
            l.add(new String[] {STARVED, "io_uring", "io_uring starved"});
            l.add(new String[] {"-Djbeam.io=uring -Djbeam.inet.multishot=false", "io_uring", "io_uring oneshot"});
        }
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
            // the receive variants run the tcp data-path programs (udp receives with recvmsg into its own buffers)
            return backends().stream().filter(be -> be[2].equals(be[1]) || mod.startsWith("inet_tcp_"))
                    .map(be -> DynamicTest.dynamicTest(mod + " " + be[2], () -> {
                String[] args = {"-run", mod, "main", "-s", "erlang", "halt"};
                Out expected = run(cmd("erl", args), null), actual = run(cmd(JBEAM, args), be[0]);
                assertEquals(expected.stdout(), actual.stdout(), mod + " on " + be[2] + ": stdout differs from erl\n" + actual.stderr());
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

    /**
     * How connected sockets receive is visible ({jbeam, socket_receives}), and each mode really ran:
     * 300 KB sent to a reader that waits first go through the ring's completions (multishot), the
     * starved ring re-arms after ENOBUFS, one-shot receives use no provided buffers, NIO has none.
     */
    @Test
    void receiveModeIsVisibleAndUsed() throws Exception {
        String[] q = {"-eval", "{ok, L} = gen_tcp:listen(0, [binary, {active, false}]), {ok, P} = inet:port(L), "
                + "{ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}]), {ok, S} = gen_tcp:accept(L), "
                + "spawn(fun() -> timer:sleep(100), [ok = gen_tcp:send(C, binary:copy(<<I>>, 1000)) || I <- lists:seq(1, 300)] end), "
                + "R = fun R(N) when N >= 300000 -> N; R(N) -> {ok, B} = gen_tcp:recv(S, 0), R(N + byte_size(B)) end, R(0), "
                + "case erlang:system_info({jbeam, socket_receives}) of "
                + "#{mode := M, completions := F, no_buffer := E} -> io:format(\"~p ~p ~p~n\", [M, F > 0, E > 0]); "
                + "Other -> io:format(\"~p~n\", [Other]) end, halt()."};
        assertEquals("nio\n", run(cmd(JBEAM, q), "-Djbeam.io=threads").stdout());
        if (PollRing.unavailableReason() != null) return;
        Out def = run(cmd(JBEAM, q), "-Djbeam.io=uring -Djbeam.io.log=true");
        if (def.stderr().contains("multishot receives,")) {
            assertEquals("multishot true false\n", def.stdout(), def.stderr());
            Out starved = run(cmd(JBEAM, q), STARVED);
            assertEquals("multishot true true\n", starved.stdout(), starved.stderr());
        } else {
            assertEquals("oneshot false false\n", def.stdout(), def.stderr());   // a kernel before 6.0
        }
        Out one = run(cmd(JBEAM, q), "-Djbeam.io=uring -Djbeam.inet.multishot=false");
        assertEquals("oneshot false false\n", one.stdout(), one.stderr());
    }
}
