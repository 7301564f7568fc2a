package org.jbeam.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Erlang distribution against real erl nodes and the real epmd: tests/dist/dist_check.erl runs
 * erl→erl (the expectation), jbeam→erl and erl→jbeam; all three outputs must be identical
 * (messages, rpc/erpc, pids and refs across nodes, remote spawn, links, monitors, exit signals,
 * group-leader I/O, monitor_node, disconnect_node and reconnecting).
 */
class DistributionTest {
    static final String JBEAM = DistNodes.JBEAM.toString();
    static Path beams;

    @BeforeAll
    static void compile() throws Exception {
        beams = DistNodes.compile("tests/dist/dist_check.erl", "tests/dist/dist_names.erl");
    }

    private static String against(String peerExe, String mainExe, String tag) throws Exception {
        return DistNodes.against(peerExe, mainExe, tag, beams, "dist_check", List.of());
    }

    @Test
    void jbeamTalksToErlBothWays() throws Exception {
        String expected = against("erl", "erl", "ee");
        assertTrue(expected.contains("ping: pong") && expected.contains("ping_again: pong"), "erl→erl baseline:\n" + expected);
        assertEquals(expected, against("erl", JBEAM, "je"), "jbeam node calling an erl node");
        assertEquals(expected, against(JBEAM, "erl", "ej"), "erl node calling a jbeam node");
    }

    private static String names(String peerExe, String mainExe, String tag, boolean hidden) throws Exception {
        return DistNodes.names(peerExe, mainExe, tag, hidden, beams, List.of());
    }

    @Test
    void longNamesAndHiddenNodes() throws Exception {
        for (boolean hidden : new boolean[] {false, true}) {
            String expected = names("erl", "erl", "ee", hidden);
            assertTrue(expected.contains("ping: pong") && expected.contains("longnames: true"), "erl→erl baseline:\n" + expected);
            assertEquals(expected, names("erl", JBEAM, "je", hidden), "jbeam node calling an erl node, hidden=" + hidden);
            assertEquals(expected, names(JBEAM, "erl", "ej", hidden), "erl node calling a jbeam node, hidden=" + hidden);
        }
    }
}
