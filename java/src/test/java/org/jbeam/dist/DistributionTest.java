package org.jbeam.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Erlang distribution against real erl nodes and the real epmd: tests/dist/dist_check.erl runs
 * erl→erl (the expectation), jbeam→erl and erl→jbeam; all three outputs must be identical
 * (messages, rpc/erpc, pids and refs across nodes, remote spawn, links, monitors, exit signals,
 * group-leader I/O, monitor_node, disconnect_node and reconnecting).
 */
class DistributionTest {
    static final Path JBEAM = Path.of("bin/jbeam").toAbsolutePath();
    static final String COOKIE = "jbeam_dist_test";
    static Path beams;

    @BeforeAll
    static void compile() throws Exception {
        beams = Files.createTempDirectory("dist-beams");
        Process c = new ProcessBuilder("erlc", "-o", beams.toString(), "tests/dist/dist_check.erl", "tests/dist/dist_names.erl").inheritIO().start();
        assertEquals(0, c.waitFor());
    }

    static String host() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
    }

    /** A peer node running dist_check:peer/0 until destroyed; {@code nameFlag} is -sname or -name. */
    private static Process peer(String exe, String nameFlag, String name) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(exe, nameFlag, name, "-setcookie", COOKIE, "-noshell", "-pa", beams.toString(),
                "-eval", "dist_check:peer()");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("ERL_CRASH_DUMP", "/dev/null");
        pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
        Process p = pb.start();
        // Up once dist_check:peer/0 has registered its processes and says so.
        var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) if (line.equals("ready")) return p;
        p.destroyForcibly();
        throw new AssertionError("peer " + name + " did not come up");
    }

    private static String runMain(String exe, String name, String peerNode) throws Exception {
        return run(List.of(exe, "-sname", name, "-setcookie", COOKIE, "-noshell", "-pa", beams.toString(),
                "-run", "dist_check", "main", peerNode, "-s", "erlang", "halt"));
    }

    private static String run(List<String> cmd) throws Exception {
        Path out = Files.createTempFile("dist", ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("ERL_CRASH_DUMP", "/dev/null");
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) p.destroyForcibly();
        String s = Files.readString(out, StandardCharsets.ISO_8859_1);
        Files.delete(out);
        return s;
    }

    private static String against(String peerExe, String mainExe, String tag) throws Exception {
        String id = tag + ProcessHandle.current().pid();
        Process peer = peer(peerExe, "-sname", "peer_" + id);
        try {
            return runMain(mainExe, "main_" + id, "peer_" + id + "@" + host());
        } finally {
            peer.destroyForcibly().waitFor();
        }
    }

    @Test
    void jbeamTalksToErlBothWays() throws Exception {
        String expected = against("erl", "erl", "ee");
        assertTrue(expected.contains("ping: pong") && expected.contains("ping_again: pong"), "erl→erl baseline:\n" + expected);
        assertEquals(expected, against("erl", JBEAM.toString(), "je"), "jbeam node calling an erl node");
        assertEquals(expected, against(JBEAM.toString(), "erl", "ej"), "erl node calling a jbeam node");
    }

    /** dist_names: -name (long names) and -hidden, main node against a peer, both with -name. */
    private static String names(String peerExe, String mainExe, String tag, boolean hidden) throws Exception {
        String id = tag + ProcessHandle.current().pid();
        Process peer = peer(peerExe, "-name", "npeer_" + id + "@127.0.0.1");
        try {
            List<String> cmd = new ArrayList<>(List.of(mainExe, "-name", "nmain_" + id + "@127.0.0.1", "-setcookie", COOKIE));
            if (hidden) cmd.add("-hidden");
            cmd.addAll(List.of("-noshell", "-pa", beams.toString(), "-run", "dist_names", "main", "npeer_" + id + "@127.0.0.1",
                    hidden ? "hidden" : "visible", "-s", "erlang", "halt"));
            return run(cmd);
        } finally {
            peer.destroyForcibly().waitFor();
        }
    }

    @Test
    void longNamesAndHiddenNodes() throws Exception {
        for (boolean hidden : new boolean[] {false, true}) {
            String expected = names("erl", "erl", "ee", hidden);
            assertTrue(expected.contains("ping: pong") && expected.contains("longnames: true"), "erl→erl baseline:\n" + expected);
            assertEquals(expected, names("erl", JBEAM.toString(), "je", hidden), "jbeam node calling an erl node, hidden=" + hidden);
            assertEquals(expected, names(JBEAM.toString(), "erl", "ej", hidden), "erl node calling a jbeam node, hidden=" + hidden);
        }
    }
}
