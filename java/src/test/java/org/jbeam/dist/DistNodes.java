package org.jbeam.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real nodes for the distribution tests: erl or bin/jbeam started with a node name, the test
 * cookie, the compiled test programs on the path and any extra flags (a -proto_dist), as peers
 * (a program's peer/0 running until destroyed) or as the main node running Module:main/1.
 */
final class DistNodes {
    private DistNodes() {}

    static final Path JBEAM = Path.of("bin/jbeam").toAbsolutePath();
    static final String COOKIE = "jbeam_dist_test";

    /** Compiles {@code sources} into a fresh directory and returns it. */
    static Path compile(String... sources) throws Exception {
        Path beams = Files.createTempDirectory("dist-beams");
        List<String> cmd = new ArrayList<>(List.of("erlc", "-o", beams.toString()));
        cmd.addAll(List.of(sources));
        Process c = new ProcessBuilder(cmd).inheritIO().start();
        assertEquals(0, c.waitFor());
        return beams;
    }

    static String host() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
    }

    /** A peer node running {@code module:peer()} until destroyed; up once it printed "ready". */
    static Process peer(String exe, String nameFlag, String name, Path beams, String module, List<String> extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(exe, nameFlag, name, "-setcookie", COOKIE));
        cmd.addAll(extra);
        cmd.addAll(List.of("-noshell", "-pa", beams.toString(), "-eval", module + ":peer()"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("ERL_CRASH_DUMP", "/dev/null");
        pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
        Process p = pb.start();
        var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) if (line.equals("ready")) return p;
        p.destroyForcibly();
        throw new AssertionError("peer " + name + " did not come up");
    }

    /** The main node: -sname {@code name}, runs {@code module:main([peerNode])} and halts; its stdout. */
    static String runMain(String exe, String name, String peerNode, Path beams, String module, List<String> extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(exe, "-sname", name, "-setcookie", COOKIE));
        cmd.addAll(extra);
        cmd.addAll(List.of("-noshell", "-pa", beams.toString(), "-run", module, "main", peerNode, "-s", "erlang", "halt"));
        return run(cmd);
    }

    static String run(List<String> cmd) throws Exception {
        Path out = Files.createTempFile("dist", ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("ERL_CRASH_DUMP", "/dev/null");
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) p.destroyForcibly();
        String s = Files.readString(out, StandardCharsets.ISO_8859_1);
        Files.delete(out);
        return s;
    }

    /** {@code module}'s main node on {@code mainExe} against its peer on {@code peerExe} (short names). */
    static String against(String peerExe, String mainExe, String tag, Path beams, String module, List<String> extra) throws Exception {
        String id = tag + ProcessHandle.current().pid();
        Process peer = peer(peerExe, "-sname", "peer_" + id, beams, module, extra);
        try {
            return runMain(mainExe, "main_" + id, "peer_" + id + "@" + host(), beams, module, extra);
        } finally {
            peer.destroyForcibly().waitFor();
        }
    }

    /** dist_names: -name (long names) and optionally -hidden, main node against a peer, both with -name. */
    static String names(String peerExe, String mainExe, String tag, boolean hidden, Path beams, List<String> extra) throws Exception {
        String id = tag + ProcessHandle.current().pid();
        Process peer = peer(peerExe, "-name", "npeer_" + id + "@127.0.0.1", beams, "dist_check", extra);
        try {
            List<String> cmd = new ArrayList<>(List.of(mainExe, "-name", "nmain_" + id + "@127.0.0.1", "-setcookie", COOKIE));
            cmd.addAll(extra);
            if (hidden) cmd.add("-hidden");
            cmd.addAll(List.of("-noshell", "-pa", beams.toString(), "-run", "dist_names", "main", "npeer_" + id + "@127.0.0.1",
                    hidden ? "hidden" : "visible", "-s", "erlang", "halt"));
            return run(cmd);
        } finally {
            peer.destroyForcibly().waitFor();
        }
    }
}
