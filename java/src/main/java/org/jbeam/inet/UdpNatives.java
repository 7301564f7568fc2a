package org.jbeam.inet;

import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.IoData;
import org.jbeam.runtime.Ports;
import org.jbeam.term.*;

/**
 * gen_udp:send/4, recv/2 and recv/3 done natively for plain udp_inet ports (ADR 0040), as ADR 0033 does
 * for gen_tcp. For a port whose port data is inet_udp or inet6_udp (what inet_db:lookup_socket returns),
 * gen_udp:send(S, IP, Port, Packet) is send/5 → lookup_socket → Mod:getaddr → Mod:getserv →
 * inet_udp:send/4 → prim_inet:sendto/4 (option encoding, address encoding, a port_command and a receive
 * of {inet_reply, S, Status}); gen_udp:recv(S, L[, T]) is lookup_socket → inet_udp:recv →
 * prim_inet:recvfrom → recvfrom0. Here the driver is called directly with the same results. Anything
 * else runs gen_udp's own Erlang body: a non-port, a closed port, a socket registered to another module,
 * an address that is not an IP tuple of the socket's family, a port that is not an integer in 0..65535,
 * a length or timeout outside what prim_inet takes as they are. Call tracing of inet_udp and prim_inet
 * no longer sees these calls (erts' gen_udp is Erlang throughout).
 */
final class UdpNatives {
    private UdpNatives() {}

    private static final EAtom GEN_UDP = EAtom.of("gen_udp"), INET_UDP = EAtom.of("inet_udp"), INET6_UDP = EAtom.of("inet6_udp"),
            INFINITY = EAtom.of("infinity");

    static void register(BifTable t) {
        t.bif4("gen_udp", "send", UdpNatives::send4);
        t.keepErlangBody("gen_udp", "send", 4);
        t.bif2("gen_udp", "recv", UdpNatives::recv2);
        t.keepErlangBody("gen_udp", "recv", 2);
        t.bif3("gen_udp", "recv", UdpNatives::recv3);
        t.keepErlangBody("gen_udp", "recv", 3);
    }

    /** The driver of an open udp_inet port that gen_udp hands to inet_udp (v4 == true) or inet6_udp, else null. */
    private static UdpInet plainUdp(ErlProcess p, Term s, boolean[] v4) {
        if (!(s instanceof EPort)) return null;
        Ports.Port pt = p.vm.ports.get(s);
        if (pt == null || pt.isClosed() || !(pt.driver instanceof UdpInet udp)) return null;
        Term d = pt.data;
        if (d != INET_UDP && d != INET6_UDP) return null;
        if (v4 != null) v4[0] = d == INET_UDP;
        return udp;
    }

    private static Term body(ErlProcess p, String fa, Term... args) {
        org.jbeam.code.BeamModule m = p.vm.code.current(GEN_UDP);
        org.jbeam.code.Export x = m == null || m.erlangBodies == null ? null : m.erlangBodies.get(fa);
        if (x == null) throw new IllegalStateException("gen_udp:" + fa + " has no Erlang body");
        return org.jbeam.interp.Trap.call(x, args);
    }

    /**
     * The address bytes of an IP tuple of the socket's family (each element in range, as inet:getaddr
     * checks), else null. An IPv4 tuple on an inet6 socket is left to Erlang (inet6_udp maps it).
     */
    private static byte[] ipBytes(Term ip, boolean v4) {
        if (!(ip instanceof ETuple t) || t.arity() != (v4 ? 4 : 8)) return null;
        byte[] b = new byte[v4 ? 4 : 16];
        int max = v4 ? 255 : 65535;
        for (int i = 0; i < t.arity(); i++) {
            if (!(t.get(i) instanceof ESmall e) || e.value < 0 || e.value > max) return null;
            if (v4) b[i] = (byte) e.value;
            else { b[2 * i] = (byte) (e.value >>> 8); b[2 * i + 1] = (byte) e.value; }
        }
        return b;
    }

    private static Term send4(ErlProcess p, Term[] a) {
        Term s = a[0], ip = a[1], port = a[2], packet = a[3];
        boolean[] v4 = new boolean[1];
        UdpInet udp = plainUdp(p, s, v4);
        byte[] addr = udp == null ? null : ipBytes(ip, v4[0]);
        if (addr == null || !(port instanceof ESmall pn) || pn.value < 0 || pn.value > 65535) return body(p, "send/4", s, ip, port, packet);
        byte[] data;
        try {
            data = IoData.toBytes(packet);
        } catch (ErlangException e) {
            return ETuple.of(EAtom.ERROR, EAtom.of("einval"));   // prim_inet:sendto's answer to a failing port_command
        }
        return udp.sendTo(addr, (int) pn.value, data);
    }

    private static Term recv2(ErlProcess p, Term s, Term length) {
        UdpInet udp = plainUdp(p, s, null);
        if (udp == null || !(length instanceof ESmall n) || n.value < 0 || n.value > 0xFFFFFFFFL) return body(p, "recv/2", s, length);
        return udp.recvDirect(p, -1);
    }

    private static Term recv3(ErlProcess p, Term s, Term length, Term time) {
        UdpInet udp = plainUdp(p, s, null);
        int ms = time == INFINITY ? -1 : time instanceof ESmall t && t.value >= 0 && t.value <= Integer.MAX_VALUE ? (int) t.value : -2;
        if (udp == null || ms == -2 || !(length instanceof ESmall n) || n.value < 0 || n.value > 0xFFFFFFFFL)
            return body(p, "recv/3", s, length, time);
        return udp.recvDirect(p, ms);
    }
}
