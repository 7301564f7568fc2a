package org.jbeam.inet;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.IoData;
import org.jbeam.runtime.Ports;
import org.jbeam.term.*;

/**
 * prim_inet's data-path functions done natively for the emulated drivers (ADR 0007, "direct data
 * path"). OTP's {@code prim_inet:send/3} is port_command + a receive of {inet_reply, S, Status};
 * {@code prim_inet:recv0/3} is port_control(TCP_REQ_RECV) + a receive of {inet_async, S, Ref, Status}.
 * Interpreted, that is two messages, a decoded control reply and a selective receive per call; here
 * the driver answers the status directly and a call that must wait suspends on an AsyncCall
 * (the suspension protocol) that the poll thread completes. Results are the same terms prim_inet
 * returns, errors included ({error, einval} where its port_command/port_control would raise).
 */
public final class InetNatives implements BifModule {
    private static final String M = "prim_inet";
    private static final EAtom FORCE = EAtom.of("force"), NOSUSPEND = EAtom.of("nosuspend");

    @Override
    public void register(BifTable t) {
        t.bif3(M, "send", InetNatives::send);
        t.bif3(M, "recv0", InetNatives::recv0);
        t.bif3(M, "recvfrom0", InetNatives::recvfrom0);
        InetOptNatives.register(t);
        t.bif4(M, "connect", InetNatives::connect4);
        t.keepErlangBody(M, "connect", 4);
        t.bif3(M, "accept", InetNatives::accept3);
        t.keepErlangBody(M, "accept", 3);
        t.bif2("gen_tcp", "send", InetNatives::genTcpSend);
        t.keepErlangBody("gen_tcp", "send", 2);
        t.bif2("gen_tcp", "recv", InetNatives::genTcpRecv2);
        t.keepErlangBody("gen_tcp", "recv", 2);
        t.bif3("gen_tcp", "recv", InetNatives::genTcpRecv3);
        t.keepErlangBody("gen_tcp", "recv", 3);
        UdpNatives.register(t);     // gen_udp:send/4, recv/2, recv/3 (ADR 0040)
    }

    // ---- gen_tcp:send/2, recv/2, recv/3 (ADR 0033) ----

    private static final EAtom PRIM_INET = EAtom.of(M), GEN_TCP = EAtom.of("gen_tcp"), INET_TCP = EAtom.of("inet_tcp"), INET6_TCP = EAtom.of("inet6_tcp"),
            INFINITY = EAtom.of("infinity");

    /**
     * The driver of a tcp_inet port that gen_tcp would hand to inet_tcp or inet6_tcp (its port data, which
     * inet_db:lookup_socket reads), else null. For such a port gen_tcp:send(S, P) is
     * inet_tcp:send(S, P) = prim_inet:send(S, P, []) and gen_tcp:recv(S, L[, T]) is prim_inet:recv0(S, L, T'):
     * a chain of three Erlang calls, an apply, port_get_data and a try per packet, which the echo
     * benchmark's round trip made four times. Anything else (a closed port, a '$inet' socket tuple,
     * local_tcp, another module registered for the port) runs gen_tcp's own Erlang body.
     */
    private static TcpIo plainTcp(ErlProcess p, Term s) {
        if (!(s instanceof EPort)) return null;
        Ports.Port pt = p.vm.ports.get(s);
        if (pt == null || pt.isClosed() || !(pt.driver instanceof TcpIo tcp)) return null;
        Term d = pt.data;
        return d == INET_TCP || d == INET6_TCP ? tcp : null;
    }

    /** The call goes to {@code module}'s own Erlang body of {@code fa} ("F/A"), kept beside its native. */
    private static Term erlangBody(ErlProcess p, EAtom module, String fa, Term... args) {
        org.jbeam.code.BeamModule m = p.vm.code.current(module);
        org.jbeam.code.Export x = m == null || m.erlangBodies == null ? null : m.erlangBodies.get(fa);
        if (x == null) throw new IllegalStateException(module.name + ":" + fa + " has no Erlang body");
        return org.jbeam.interp.Trap.call(x, args);
    }

    private static Term genTcpBody(ErlProcess p, String fa, Term... args) { return erlangBody(p, GEN_TCP, fa, args); }

    private static Term genTcpSend(ErlProcess p, Term s, Term data) {
        TcpIo tcp = plainTcp(p, s);
        if (tcp == null) return genTcpBody(p, "send/2", s, data);
        byte[] bytes;
        try {
            bytes = IoData.toBytes(data);
        } catch (ErlangException e) {
            return einval();      // prim_inet:send's answer to bad iodata
        }
        return tcp.sendDirect(p, bytes, false);
    }

    private static Term genTcpRecv2(ErlProcess p, Term s, Term length) {
        TcpIo tcp = plainTcp(p, s);
        if (tcp == null || !(length instanceof ESmall n) || n.value < 0 || n.value > Integer.MAX_VALUE)
            return genTcpBody(p, "recv/2", s, length);
        return tcp.recvDirect(p, (int) n.value, -1);
    }

    private static Term genTcpRecv3(ErlProcess p, Term s, Term length, Term time) {
        TcpIo tcp = plainTcp(p, s);
        int ms = time == INFINITY ? -1 : time instanceof ESmall t && t.value >= 0 && t.value <= Integer.MAX_VALUE ? (int) t.value : -2;
        if (tcp == null || ms == -2 || !(length instanceof ESmall n) || n.value < 0 || n.value > Integer.MAX_VALUE)
            return genTcpBody(p, "recv/3", s, length, time);
        return tcp.recvDirect(p, (int) n.value, ms);
    }

    // ---- prim_inet:connect/4 ----

    /**
     * prim_inet:connect(S, IP, Port, Time) (inet_tcp:do_connect's call) and connect(S, {IP, Port}, _, Time)
     * for a tcp_inet port of family inet and an IPv4 address: type_value(set, addr, ...), enc_time,
     * enc_value, ctl_cmd and the receive of the inet_async message, per connect, are the driver's
     * {@link TcpInet#connectDirect} here. prim_inet's option tables under type_value_2/enc_value_2 are
     * the biggest functions of the connect path: interpreted, or compiled by the bytecode tier into
     * classes that cost C2 a second of a fresh VM's first seconds (ADR 0066). Anything else (an
     * IPv6 or local address, a udp port, a bad address or time) runs prim_inet's own body.
     */
    private static Term connect4(ErlProcess p, Term[] a) {
        Term s = a[0], ip = a[1], port = a[2], time = a[3];
        if (s instanceof EPort && ip instanceof ETuple t && t.arity() == 2) { ip = t.get(0); port = t.get(1); }
        Ports.Port pt = s instanceof EPort ? p.vm.ports.get(s) : null;
        java.net.InetSocketAddress addr = pt != null && pt.driver instanceof TcpInet tcp && tcp.family() == InetCodec.AF_INET ? ipv4(ip, port) : null;
        int ms = time == INFINITY ? -1 : time instanceof ESmall n && n.value >= 0 && n.value <= Integer.MAX_VALUE ? (int) n.value : -2;
        if (addr == null || ms == -2) return erlangBody(p, PRIM_INET, "connect/4", a[0], a[1], a[2], a[3]);
        return ((TcpInet) pt.driver).connectDirect(p, addr, ms);
    }

    // ---- prim_inet:accept/3 ----

    /**
     * prim_inet:accept(L, Time, FamilyOpts), inet_tcp:accept's call: when a connection is already
     * queued on a tcp listen socket and no acceptor waits, the new port goes straight to
     * prim_inet's own accept_opts/3 (the options copied from the listen socket), without
     * accept0's port_control, inet_async message and receive. Otherwise prim_inet's body.
     */
    private static Term accept3(ErlProcess p, Term l, Term time, Term familyOpts) {
        Ports.Port pt = l instanceof EPort && (time == INFINITY || time instanceof ESmall) && familyOpts instanceof EList ? p.vm.ports.get(l) : null;
        EPort s = pt != null && pt.driver instanceof TcpInet tcp ? tcp.acceptNow(p) : null;
        if (s != null) return InetOptNatives.local(p, "accept_opts", 3, l, s, familyOpts);
        return erlangBody(p, PRIM_INET, "accept/3", l, time, familyOpts);
    }

    /** {A,B,C,D} and a port number as a socket address, or null if either is not one (type_value's ip4 and port). */
    private static java.net.InetSocketAddress ipv4(Term ip, Term port) {
        if (!(ip instanceof ETuple t) || t.arity() != 4 || !(port instanceof ESmall pn) || pn.value < 0 || pn.value > 0xFFFF) return null;
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (!(t.get(i) instanceof ESmall e) || e.value < 0 || e.value > 255) return null;
            b[i] = (byte) e.value;
        }
        try {
            return new java.net.InetSocketAddress(java.net.InetAddress.getByAddress(b), (int) pn.value);
        } catch (java.net.UnknownHostException e) {
            return null;     // not for four bytes
        }
    }

    private static Term einval() { return ETuple.of(EAtom.ERROR, EAtom.of("einval")); }

    /** send(S, Data, OptList) when is_port(S), is_list(OptList). */
    private static Term send(ErlProcess p, Term s, Term data, Term optList) {
        if (!(s instanceof EPort) || !(optList instanceof EList)) throw ErlangException.error(EAtom.FUNCTION_CLAUSE);
        boolean nosuspend = false;
        Term l = optList;
        while (l instanceof ECons c) {
            if (c.head == NOSUSPEND) nosuspend = true;
            else if (c.head != FORCE) return einval();
            l = c.tail;
        }
        if (l != ENil.NIL) return einval();
        Ports.Port pt = p.vm.ports.get(s);
        if (pt == null) return einval();
        byte[] bytes;
        try {
            bytes = IoData.toBytes(data);
        } catch (ErlangException e) {
            return einval();
        }
        return switch (pt.driver) {
            case TcpIo tcp -> tcp.sendDirect(p, bytes, nosuspend);
            case UdpInet udp -> udp.send(bytes);
            case null, default -> einval();
        };
    }

    /** recv0(S, Length, Time) when is_port(S), is_integer(Length), Length >= 0 (Time: -1 for infinity). */
    private static Term recv0(ErlProcess p, Term s, Term length, Term time) {
        if (!(s instanceof EPort) || !isInteger(length) || length instanceof ESmall n && n.value < 0
                || length instanceof EBig b && b.signum() < 0) throw ErlangException.error(EAtom.FUNCTION_CLAUSE);
        if (!isInteger(time)) throw ErlangException.badarg();
        // port_control's ?int32 encoding keeps the low 32 bits of both.
        int len = (int) low64(length), ms = (int) low64(time);
        if (low64(time) < 0) ms = -1;
        Ports.Port pt = p.vm.ports.get(s);
        if (pt == null) return einval();
        if (pt.driver instanceof TcpIo tcp) return tcp.recvDirect(p, len, ms);
        if (pt.driver == null) return einval();
        byte[] req = new byte[8];
        InetCodec.put32(req, 0, ms);
        InetCodec.put32(req, 4, len);
        Term r = pt.driver.control(p, TcpInet.MAGIC + TcpInet.TCP_REQ_RECV, req);
        return r instanceof ECons c && c.head instanceof ESmall tag && tag.value == InetCodec.REP_OK ? einval() : errorOf(r);
    }

    /**
     * recvfrom0(S, Length, Time) (Time: -1 for infinity), prim_inet's port_control(PACKET_REQ_RECV) + receive
     * of {inet_async, S, Ref, Status}: for a udp_inet port the datagram path answers directly
     * ({@link UdpInet#recvDirect}). Its last clause answers {error, einval} for a bad Length; a failing
     * port_control (not a port, closed) is {error, einval} too.
     */
    private static Term recvfrom0(ErlProcess p, Term s, Term length, Term time) {
        if (!isInteger(length) || length instanceof ESmall n && (n.value < 0 || n.value > 0xFFFFFFFFL) || length instanceof EBig) return einval();
        if (!isInteger(time)) throw ErlangException.error(EAtom.of("badarith"));
        int ms = low64(time) < 0 ? -1 : (int) low64(time);
        Ports.Port pt = p.vm.ports.get(s);
        if (pt == null || pt.driver == null) return einval();
        if (pt.driver instanceof UdpInet udp) return udp.recvDirect(p, ms);
        byte[] req = new byte[8];
        InetCodec.put32(req, 0, ms);
        InetCodec.put32(req, 4, (int) low64(length));
        Term r = pt.driver.control(p, TcpInet.MAGIC + UdpInet.PACKET_REQ_RECV, req);
        return r instanceof ECons c && c.head instanceof ESmall tag && tag.value == InetCodec.REP_OK ? einval() : errorOf(r);
    }

    /** An INET_REP_ERROR control reply as {error, Reason}. */
    private static Term errorOf(Term reply) {
        StringBuilder sb = new StringBuilder();
        Term l = reply instanceof ECons c ? c.tail : ENil.NIL;
        while (l instanceof ECons c && c.head instanceof ESmall ch) { sb.append((char) ch.value); l = c.tail; }
        return ETuple.of(EAtom.ERROR, EAtom.of(sb.length() == 0 ? "einval" : sb.toString()));
    }

    private static boolean isInteger(Term t) { return t instanceof ESmall || t instanceof EBig; }

    private static long low64(Term t) { return t instanceof ESmall n ? n.value : ((EBig) t).value.longValue(); }
}
