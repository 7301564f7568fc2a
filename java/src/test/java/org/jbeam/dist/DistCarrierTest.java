package org.jbeam.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Distribution over process-based controllers (ADR 0058) against real erl nodes: OTP's TLS
 * distribution ({@code -proto_dist inet_tls} with an {@code -ssl_dist_optfile}, certificates made
 * here by openssl: a CA and a node certificate both sides present and verify) and OTP's
 * {@code gen_tcp_dist} alternative-carrier example compiled from the installed kernel. Each runs
 * tests/dist/dist_carrier.erl erl→erl (the expectation), jbeam→erl, erl→jbeam and jbeam→jbeam;
 * the full dist_check program also runs over TLS.
 */
class DistCarrierTest {
    static final String JBEAM = DistNodes.JBEAM.toString();
    static Path beams;
    static List<String> tls, tlsNoServerCheck;
    static final List<String> GEN_TCP = List.of("-proto_dist", "gen_tcp");
    static boolean hasGenTcpDist;

    @BeforeAll
    static void setUp() throws Exception {
        String kernel = DistNodes.run(List.of("erl", "-noshell", "-eval", "io:format(\"~s\", [code:lib_dir(kernel)]), halt()."));
        // kernel's examples are not in every OTP installation (Debian's erlang-base lacks them):
        // without gen_tcp_dist.erl the gen_tcp carrier test is skipped, the TLS ones still run.
        Path genTcpDist = Path.of(kernel, "examples/gen_tcp_dist/src/gen_tcp_dist.erl");
        hasGenTcpDist = Files.exists(genTcpDist);
        List<String> sources = new java.util.ArrayList<>(List.of("tests/dist/dist_carrier.erl", "tests/dist/dist_check.erl",
                "tests/dist/dist_restart.erl", "tests/dist/dist_names.erl"));
        if (hasGenTcpDist) sources.add(genTcpDist.toString());
        beams = DistNodes.compile(sources.toArray(new String[0]));
        Path conf = certificates(beams);
        tls = List.of("-proto_dist", "inet_tls", "-ssl_dist_optfile", conf.toString());
        // For nodes named by IP address: OTP's hostname check rejects an IP as server name, so
        // there the client does not verify the server (the server still verifies the client).
        Path ipConf = beams.resolve("ssl_dist_ip.conf");
        Files.writeString(ipConf, Files.readString(conf).replace("{verify, verify_peer}]}].", "{verify, verify_none}]}]."));
        tlsNoServerCheck = List.of("-proto_dist", "inet_tls", "-ssl_dist_optfile", ipConf.toString());
    }

    /**
     * A CA and a node certificate signed by it for this host (inet_tls_dist's client checks the
     * server name against the host part of the node name), and the ssl_dist_optfile using them:
     * the server asks for and verifies the client's certificate, the client verifies the server's.
     */
    static Path certificates(Path dir) throws Exception {
        String d = dir.toString();
        Files.writeString(dir.resolve("ext.cnf"), "subjectAltName=DNS:" + DistNodes.host() + ",DNS:localhost,IP:127.0.0.1\n");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", d + "/ca.key", "-out", d + "/ca.pem", "-days", "3650",
                "-subj", "/CN=jbeam-test-ca");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", d + "/node.key", "-out", d + "/node.csr", "-subj", "/CN=jbeam-test-node");
        openssl("x509", "-req", "-in", d + "/node.csr", "-CA", d + "/ca.pem", "-CAkey", d + "/ca.key", "-CAcreateserial",
                "-out", d + "/node.pem", "-days", "3650", "-extfile", d + "/ext.cnf");
        String files = "{certfile, \"" + d + "/node.pem\"}, {keyfile, \"" + d + "/node.key\"}, {cacertfile, \"" + d + "/ca.pem\"}";
        Path conf = dir.resolve("ssl_dist.conf");
        Files.writeString(conf, "[{server, [" + files + ", {verify, verify_peer}, {fail_if_no_peer_cert, true}]},\n"
                + " {client, [" + files + ", {verify, verify_peer}]}].\n");
        return conf;
    }

    private static void openssl(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertEquals(0, p.waitFor(), "openssl " + String.join(" ", args));
    }

    /** The program on every pair of erl and jbeam nodes; all must print what erl→erl prints. */
    private static void allPairs(String module, List<String> flags, String tag, String... mustContain) throws Exception {
        String expected = DistNodes.against("erl", "erl", tag + "ee", beams, module, flags);
        for (String s : mustContain) assertTrue(expected.contains(s), "erl→erl baseline lacks " + s + ":\n" + expected);
        assertEquals(expected, DistNodes.against("erl", JBEAM, tag + "je", beams, module, flags), "jbeam node calling an erl node");
        assertEquals(expected, DistNodes.against(JBEAM, "erl", tag + "ej", beams, module, flags), "erl node calling a jbeam node");
        assertEquals(expected, DistNodes.against(JBEAM, JBEAM, tag + "jj", beams, module, flags), "jbeam node calling a jbeam node");
    }

    @Test
    void tlsDistribution() throws Exception {
        allPairs("dist_carrier", tls, "t", "protocol: tls", "controller: [true]", "big_binary_echo: {4194304,true}", "rpc_again: true");
    }

    @Test
    void fullDistCheckOverTls() throws Exception {
        String expected = DistNodes.against("erl", "erl", "cee", beams, "dist_check", tls);
        assertTrue(expected.contains("ping: pong") && expected.contains("ping_again: pong"), "erl→erl baseline:\n" + expected);
        assertEquals(expected, DistNodes.against("erl", JBEAM, "cje", beams, "dist_check", tls), "jbeam node calling an erl node");
        assertEquals(expected, DistNodes.against(JBEAM, "erl", "cej", beams, "dist_check", tls), "erl node calling a jbeam node");
    }

    @Test
    void longNamesAndHiddenOverTls() throws Exception {
        String expected = DistNodes.names("erl", "erl", "tee", true, beams, tlsNoServerCheck);
        assertTrue(expected.contains("ping: pong") && expected.contains("hidden: true"), "erl→erl baseline:\n" + expected);
        assertEquals(expected, DistNodes.names("erl", JBEAM, "tje", true, beams, tlsNoServerCheck), "jbeam hidden node calling an erl node");
        assertEquals(expected, DistNodes.names(JBEAM, "erl", "tej", true, beams, tlsNoServerCheck), "erl hidden node calling a jbeam node");
    }

    @Test
    void genTcpDistCarrier() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(hasGenTcpDist, "kernel's examples/gen_tcp_dist is not installed");
        allPairs("dist_carrier", GEN_TCP, "g", "proto_dist: {ok,[[\"gen_tcp\"]]}", "protocol: tcp", "controller: [true]", "rpc_again: true");
    }

    /** dist_restart: net_kernel:stop/0 takes the TLS connection down, a new start reconnects. */
    private static String restart(String peerExe, String mainExe, String tag) throws Exception {
        String id = tag + ProcessHandle.current().pid();
        Process peer = DistNodes.peer(peerExe, "-sname", "rpeer_" + id, beams, "dist_check", tls);
        try {
            List<String> cmd = new java.util.ArrayList<>(List.of(mainExe, "-setcookie", DistNodes.COOKIE));
            cmd.addAll(tls);
            cmd.addAll(List.of("-noshell", "-pa", beams.toString(), "-run", "dist_restart", "main", "rpeer_" + id + "@" + DistNodes.host(),
                    "rmain1_" + id, "rmain2_" + id, "-s", "erlang", "halt"));
            return DistNodes.run(cmd);
        } finally {
            peer.destroyForcibly().waitFor();
        }
    }

    @Test
    void stopAndRestartOverTls() throws Exception {
        String expected = restart("erl", "erl", "ee");
        assertTrue(expected.contains("controller_down: killed") && expected.contains("ping_again: pong"), "erl baseline:\n" + expected);
        assertEquals(expected, restart("erl", JBEAM, "je"), "jbeam node restarting its distribution");
    }
}
