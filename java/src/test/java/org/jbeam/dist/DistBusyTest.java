package org.jbeam.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure on distribution connections (ADR 0064): tests/dist/dist_busy.erl floods a peer
 * node stopped with SIGSTOP with 1 MiB messages; the sender must be suspended at
 * dist_buf_busy_limit, nosuspend sends must fail, and after SIGCONT all messages arrive in order.
 * erl→erl is the expectation; jbeam→erl checks jbeam's sending side (port and process
 * controllers), erl→jbeam its receiving side under the burst, jbeam→jbeam both.
 */
class DistBusyTest {
    static final String JBEAM = DistNodes.JBEAM.toString();
    static Path beams;

    @BeforeAll
    static void compile() throws Exception {
        beams = DistNodes.compile("tests/dist/dist_busy.erl");
    }

    private static String expected(List<String> flags, String tag, String... mustContain) throws Exception {
        String e = DistNodes.against("erl", "erl", tag + "ee", beams, "dist_busy", flags);
        for (String s : mustContain) assertTrue(e.contains(s), "erl→erl baseline lacks " + s + ":\n" + e);
        return e;
    }

    @Test
    void sendersSuspendOnABusyTcpConnection() throws Exception {
        String expected = expected(List.of(), "b", "sender_suspended: true", "received_in_order: {96,0}", "send_nosuspend_opt: nosuspend");
        assertEquals(expected, DistNodes.against("erl", JBEAM, "bje", beams, "dist_busy", List.of()), "jbeam node sending to a stopped erl node");
        assertEquals(expected, DistNodes.against(JBEAM, "erl", "bej", beams, "dist_busy", List.of()), "erl node sending to a stopped jbeam node");
        assertEquals(expected, DistNodes.against(JBEAM, JBEAM, "bjj", beams, "dist_busy", List.of()), "jbeam node sending to a stopped jbeam node");
    }

    @Test
    void zdbblSetsTheLimit() throws Exception {
        List<String> flags = List.of("+zdbbl", "4096");
        String expected = expected(flags, "z", "limit: 4194304", "sender_suspended: true", "received_in_order: {96,0}");
        assertEquals(expected, DistNodes.against("erl", JBEAM, "zje", beams, "dist_busy", flags), "jbeam node with +zdbbl 4096");
    }

    @Test
    void sendersSuspendOnABusyTlsConnection() throws Exception {
        Path conf = DistCarrierTest.certificates(beams);
        List<String> tls = List.of("-proto_dist", "inet_tls", "-ssl_dist_optfile", conf.toString());
        String expected = expected(tls, "t", "sender_suspended: true", "pending_bounded: process_controller", "received_in_order: {96,0}");
        assertEquals(expected, DistNodes.against("erl", JBEAM, "tje", beams, "dist_busy", tls), "jbeam node sending over TLS to a stopped erl node");
    }
}
