package org.jbeam.socket;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jbeam.term.EAtom;
import org.jbeam.term.ECons;
import org.jbeam.term.EMap;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * socket:info/1's map of one socket, and the tables of nif_supports/1 that prim_socket:init/0 turns
 * into its persistent terms: protocols (from /etc/protocols, as erts reads them with getprotoent),
 * options ({@link SockOpts#table}) and message flags.
 */
final class SockInfo {
    private SockInfo() {}

    static Term info(Sock s) {
        synchronized (s) {
            Sock.Counters c = s.counters;
            EMap counters = EMap.EMPTY;
            long[] v = {c.accFails, c.accSuccess, c.accTries, c.accWaits, c.readByte, c.readFails, c.readPkg, c.readPkgMax,
                    c.readTries, c.readWaits, c.writeByte, c.writeFails, c.writePkg, c.writePkgMax, c.writeTries, c.writeWaits};
            String[] k = {"acc_fails", "acc_success", "acc_tries", "acc_waits", "read_byte", "read_fails", "read_pkg",
                    "read_pkg_max", "read_tries", "read_waits", "write_byte", "write_fails", "write_pkg", "write_pkg_max",
                    "write_tries", "write_waits"};
            for (int i = 0; i < k.length; i++) counters = counters.put(EAtom.of(k[i]), ESmall.of(v[i]));
            List<Term> r = new ArrayList<>(), w = new ArrayList<>();
            if (s.closed) {
                r.add(EAtom.of("closing"));
                r.add(EAtom.of("closed"));
                w.add(EAtom.of("closing"));
                w.add(EAtom.of("closed"));
            } else {
                if (s.bound) r.add(EAtom.of("bound"));
                if (s.listening) r.add(EAtom.of("listening"));
                if (s.acceptor != null) r.add(EAtom.of("accepting"));
                if (s.reader != null || s.acceptor != null) r.add(EAtom.of("selected"));
                if (s.connecting) w.add(EAtom.of("connecting"));
                if (s.writer != null || s.connector != null) w.add(EAtom.of("selected"));
            }
            return EMap.EMPTY.put(EAtom.of("counters"), counters).put(EAtom.of("ctype"), EAtom.of("normal"))
                    .put(EAtom.of("domain"), SocketNifs.domainAtom(s.domain))
                    .put(EAtom.of("num_acceptors"), ESmall.of(Sock.queued(s.acceptor, s.acceptors)))
                    .put(EAtom.of("num_readers"), ESmall.of(Sock.queued(s.reader, s.readers)))
                    .put(EAtom.of("num_writers"), ESmall.of(Sock.queued(s.writer, s.writers)))
                    .put(EAtom.of("owner"), s.closed ? EAtom.UNDEFINED : s.owner).put(EAtom.of("protocol"), ESmall.of(s.protocol))
                    .put(EAtom.of("rstates"), ECons.of(r)).put(EAtom.of("type"), SocketNifs.typeAtom(s.type))
                    .put(EAtom.of("wstates"), ECons.of(w));
        }
    }

    static Term supports(Term key) {
        if (!(key instanceof EAtom k)) return ECons.of();
        return switch (k.name) {
            case "options" -> SockOpts.table();
            case "protocols" -> protocols();
            case "msg_flags" -> ECons.of(flag("cmsg_cloexec", 0x40000000), flag("confirm", 0x800), flag("ctrunc", 8),
                    flag("dontroute", 4), flag("eor", 0x80), flag("errqueue", 0x2000), flag("more", 0x8000),
                    flag("nosignal", 0x4000), flag("oob", 1), flag("peek", 2), flag("trunc", 0x20));
            default -> ECons.of(); // ioctl_requests, ioctl_flags: no ioctl support
        };
    }

    private static Term flag(String name, int v) { return ETuple.of(EAtom.of(name), ESmall.of(v)); }

    private static volatile Term protocols;

    /**
     * [{[Name | Aliases], Number}] of /etc/protocols; the levels prim_socket's option table needs
     * (ip, ipv6, tcp, udp) are added when the file lacks them, or its init would crash.
     */
    static Term protocols() {
        Term t = protocols;
        if (t != null) return t;
        Map<Integer, List<String>> byNum = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/etc/protocols"))) {
                int hash = line.indexOf('#');
                String[] f = (hash >= 0 ? line.substring(0, hash) : line).trim().split("\\s+");
                if (f.length < 2) continue;
                int num;
                try { num = Integer.parseInt(f[1]); } catch (NumberFormatException e) { continue; }
                if (byNum.containsKey(num)) continue;
                List<String> names = new ArrayList<>();
                names.add(f[0]);
                for (int i = 2; i < f.length; i++) names.add(f[i]);
                byNum.put(num, names);
            }
        } catch (IOException e) {
            // no /etc/protocols: the minimal set below
        }
        byNum.putIfAbsent(0, List.of("ip", "IP"));
        byNum.putIfAbsent(6, List.of("tcp", "TCP"));
        byNum.putIfAbsent(17, List.of("udp", "UDP"));
        byNum.putIfAbsent(41, List.of("ipv6", "IPv6"));
        List<Term> out = new ArrayList<>();
        for (var e : byNum.entrySet()) {
            List<Term> names = new ArrayList<>();
            for (String n : e.getValue()) names.add(EAtom.of(n));
            out.add(ETuple.of(ECons.of(names), ESmall.of(e.getKey())));
        }
        return protocols = ECons.of(out);
    }
}
