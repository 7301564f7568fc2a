package org.jbeam.socket;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.libc.Sockets;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.ECons;
import org.jbeam.term.EMap;
import org.jbeam.term.EPid;
import org.jbeam.term.ERef;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * prim_socket's NIFs (erts' prim_socket_nif.c) for OTP's unmodified socket.erl / prim_socket.erl:
 * argument checks (badarg for what is not a socket, a non-integer flag word ...) and dispatch to
 * {@link SockOps} (the calls), {@link SockMsg} (sendmsg/recvmsg) and {@link SockOpts} (options). Not
 * implemented, answered {@code {error, enotsup}}: control messages, ioctl, the multi-address bind of SCTP,
 * network namespaces (ADR 0054).
 */
public final class SocketNifs implements BifModule {
    private static final String M = "prim_socket";
    private static final ETuple ENOTSUP = ETuple.of(EAtom.ERROR, EAtom.of("enotsup"));
    private static volatile boolean useRegistryDefault = true;

    /** load_nif of prim_socket: remembers the socket registry its on_load spawned. */
    public static void loaded(Term info) {
        if (info instanceof EMap m && m.get(EAtom.of("registry")) instanceof EPid r) Sock.registry = r;
    }

    /** A process exited (ProcessTable.exit): the sockets it owned close, operations it held pass on. */
    public static void processExited(ErlProcess p) { Sock.processExited(p); }

    @Override
    public void register(BifTable t) {
        t.bif0(M, "nif_info", p -> globalInfo());
        t.bif1(M, "nif_info", (p, s) -> SockInfo.info(Sock.of(s)));
        t.bif1(M, "nif_command", (p, c) -> command(c));
        t.bif0(M, "nif_supports", p -> ECons.of(ETuple.of(EAtom.of("sctp"), EAtom.FALSE), ETuple.of(EAtom.of("ipv6"), EAtom.TRUE),
                ETuple.of(EAtom.of("local"), EAtom.TRUE), ETuple.of(EAtom.of("netns"), EAtom.FALSE),
                ETuple.of(EAtom.of("sendfile"), EAtom.TRUE)));
        t.bif1(M, "nif_supports", (p, k) -> SockInfo.supports(k));
        t.bifN(M, "nif_open", 4, (p, a) -> open(p, a[0], a[1], a[2], a[3]));
        t.bif2(M, "nif_open", SocketNifs::openFd);
        t.bif2(M, "nif_bind", (p, s, addr) -> SockOps.bind(Sock.of(s), addr));
        t.bif3(M, "nif_bind", (p, s, addrs, action) -> { Sock.of(s); return ENOTSUP; });
        t.bif1(M, "nif_connect", (p, s) -> SockOps.connectDone(Sock.of(s)));
        t.bif3(M, "nif_connect", (p, s, ref, addr) -> SockOps.connect(Sock.of(s), p.pid, handle(ref), addr));
        t.bif2(M, "nif_listen", (p, s, backlog) -> SockOps.listen(Sock.of(s), int32(backlog)));
        // The handle is not checked (esock tries the accept first: a non-listening socket is einval).
        t.bif2(M, "nif_accept", (p, s, ref) -> SockOps.accept(Sock.of(s), p, ref));
        t.bifN(M, "nif_send", 4, (p, a) -> SockOps.send(Sock.of(a[0]), p.pid, binary(a[1]), null, int32(a[2]), handle(a[3])));
        t.bifN(M, "nif_sendto", 5, (p, a) -> SockOps.send(Sock.of(a[0]), p.pid, binary(a[1]), a[2], int32(a[3]), handle(a[4])));
        t.bifN(M, "nif_sendmsg", 5, (p, a) -> SockMsg.send(Sock.of(a[0]), p.pid, a[1], int32(a[2]), handle(a[3]), a[4]));
        t.bifN(M, "nif_sendfile", 5, (p, a) -> SockSendfile.start(Sock.of(a[0]), p.pid, handle(a[1]), int64(a[2]), count(a[3]), a[4]));
        t.bifN(M, "nif_sendfile", 4, (p, a) -> SockSendfile.cont(Sock.of(a[0]), p.pid, handle(a[1]), int64(a[2]), count(a[3])));
        t.bif1(M, "nif_sendfile", (p, s) -> SockSendfile.deferredClose(Sock.of(s)));
        t.bifN(M, "nif_recv", 4, (p, a) -> recv(p, a, false));
        t.bifN(M, "nif_recvfrom", 4, (p, a) -> recv(p, a, true));
        t.bifN(M, "nif_recvmsg", 5, (p, a) -> {
            Sock s = Sock.of(a[0]);
            long len = length(a[1]);
            length(a[2]); // the control buffer size: no control messages are received (SockMsg)
            int flags = int32(a[3]);
            Term h = handle(a[4]);
            if (len < 0) return ETuple.of(SockOps.INVALID, ETuple.of(EAtom.of("integer_range"), a[1]));
            return SockOps.recv(s, p.pid, len, flags, h, SockOps.MSG);
        });
        t.bif1(M, "nif_close", (p, s) -> SockOps.close(Sock.of(s), p));
        t.bif1(M, "nif_finalize_close", (p, s) -> Sock.of(s).finalizeClose());
        t.bif2(M, "nif_shutdown", (p, s, how) -> SockOps.shutdown(Sock.of(s), how));
        t.bifN(M, "nif_setopt", 5, (p, a) -> SockOpts.setopt(Sock.of(a[0]), p, a[1], a[2], a[3], a[4] != ESmall.ZERO));
        t.bif3(M, "nif_getopt", (p, s, l, o) -> SockOpts.getopt(Sock.of(s), l, o, null));
        t.bifN(M, "nif_getopt", 4, (p, a) -> SockOpts.getopt(Sock.of(a[0]), a[1], a[2], a[3]));
        t.bif1(M, "nif_sockname", (p, s) -> SockOps.name(Sock.of(s), false));
        t.bif1(M, "nif_peername", (p, s) -> SockOps.name(Sock.of(s), true));
        t.bif2(M, "nif_ioctl", (p, s, r) -> { Sock.of(s); return ENOTSUP; });
        t.bif3(M, "nif_ioctl", (p, s, r, x) -> { Sock.of(s); return ENOTSUP; });
        t.bifN(M, "nif_ioctl", 4, (p, a) -> { Sock.of(a[0]); return ENOTSUP; });
        t.bif3(M, "nif_cancel", (p, s, op, ref) -> {
            Sock k = Sock.of(s);
            if (!(op instanceof EAtom a) || !(ref instanceof ERef)) throw ErlangException.badarg();
            return SockOps.cancel(k, a, ref);
        });
    }

    // ---- argument checks ----

    private static int int32(Term t) {
        if (t instanceof ESmall s && s.value == (int) s.value) return (int) s.value;
        throw ErlangException.badarg();
    }

    /** A recv length: a negative integer is answered {invalid, {integer_range, N}} (as esock), other terms are badarg. */
    private static long length(Term t) {
        if (t instanceof ESmall s) return s.value;
        throw ErlangException.badarg();
    }

    private static Term recv(ErlProcess p, Term[] a, boolean from) {
        Sock s = Sock.of(a[0]);
        long len = length(a[1]);
        int flags = int32(a[2]);
        Term h = handle(a[3]);
        if (len < 0) return ETuple.of(SockOps.INVALID, ETuple.of(EAtom.of("integer_range"), a[1]));
        return SockOps.recv(s, p.pid, len, flags, h, from);
    }

    private static long int64(Term t) {
        if (t instanceof ESmall s) return s.value;
        throw ErlangException.badarg();
    }

    private static long count(Term t) {
        if (t instanceof ESmall s && s.value >= 0) return s.value;
        throw ErlangException.badarg();
    }

    private static EBitString binary(Term t) {
        if (t instanceof EBitString b && b.extraBits() == 0) return b;
        throw ErlangException.badarg();
    }

    /** A select handle: a reference, or the atom zero (socket.erl's "do not wait"). */
    private static Term handle(Term t) {
        if (t instanceof ERef || t == SockOps.ZERO) return t;
        throw ErlangException.badarg();
    }

    // ---- open ----

    static EAtom domainAtom(int d) {
        return switch (d) {
            case Sockets.AF_INET -> SockAddrs.INET;
            case Sockets.AF_INET6 -> SockAddrs.INET6;
            case Sockets.AF_UNIX -> SockAddrs.LOCAL;
            default -> SockAddrs.UNSPEC;
        };
    }

    static Term typeAtom(int t) {
        return switch (t) {
            case Sockets.SOCK_STREAM -> EAtom.of("stream");
            case Sockets.SOCK_DGRAM -> EAtom.of("dgram");
            case Sockets.SOCK_RAW -> EAtom.of("raw");
            case 5 -> EAtom.of("seqpacket");
            default -> ESmall.of(t);
        };
    }

    private static Term open(ErlProcess p, Term domain, Term type, Term protocol, Term opts) {
        if (!(opts instanceof EMap o) || !(protocol instanceof ESmall proto) || proto.value != (int) proto.value) throw ErlangException.badarg();
        int d = domainOf(domain);
        if (d < 0) return ETuple.of(SockOps.INVALID, EAtom.of("domain"));
        int ty = typeOf(type);
        if (ty < 0) return ETuple.of(SockOps.INVALID, EAtom.of("type"));
        if (o.get(EAtom.of("netns")) != null) return ENOTSUP;
        boolean useRegistry = o.get(EAtom.of("use_registry")) instanceof EAtom u ? u == EAtom.TRUE : useRegistryDefault;
        if (!SockRing.available()) return ENOTSUP;
        int fd = Libc.socket(d, ty | Sockets.SOCK_NONBLOCK | Sockets.SOCK_CLOEXEC, (int) proto.value);
        if (fd < 0) return SockOps.error(fd);
        int pr = (int) proto.value;
        if (pr == 0) {
            // As esock: the protocol the kernel chose (SO_PROTOCOL), which socket:info/1 reports.
            pr = Math.max(0, sockopt(fd, 38));
        }
        Sock s = new Sock(p.vm, fd, d, ty, pr, p.pid, useRegistry);
        if (o.get(EAtom.of("debug")) == EAtom.TRUE) s.debug = true;
        return ETuple.of(EAtom.OK, s.ref);
    }

    /**
     * nif_open/2: a socket over an existing descriptor (dup'd unless {@code dup => false}), its domain,
     * type and protocol from the options or else asked of the descriptor; one that is no socket is
     * {@code {invalid, domain}} as in erts.
     */
    private static Term openFd(ErlProcess p, Term fdTerm, Term opts) {
        if (!(fdTerm instanceof ESmall f) || f.value != (int) f.value || !(opts instanceof EMap o)) throw ErlangException.badarg();
        if (!SockRing.available()) return ENOTSUP;
        int fd = (int) f.value;
        int d = domainOf(o.get(EAtom.of("domain")));
        if (d < 0) d = sockopt(fd, 39 /* SO_DOMAIN */);
        if (d < 0) return ETuple.of(SockOps.INVALID, EAtom.of("domain"));
        int ty = typeOf(o.get(EAtom.of("type")));
        if (ty < 0) ty = sockopt(fd, 3 /* SO_TYPE */);
        if (ty < 0) return ETuple.of(SockOps.INVALID, EAtom.of("type"));
        int pr = o.get(EAtom.of("protocol")) instanceof ESmall n && n.value == (int) n.value ? (int) n.value : sockopt(fd, 38);
        int nfd = o.get(EAtom.of("dup")) == EAtom.FALSE ? fd : Libc.fcntl(fd, Libc.F_DUPFD_CLOEXEC, 0);
        if (nfd < 0) return SockOps.error(nfd);
        int fl = Libc.fcntl(nfd, Libc.F_GETFL, 0);
        if (fl >= 0) Libc.fcntl(nfd, Libc.F_SETFL, fl | org.jbeam.bindings.libc.Fcntl.O_NONBLOCK);
        boolean useRegistry = o.get(EAtom.of("use_registry")) instanceof EAtom u ? u == EAtom.TRUE : useRegistryDefault;
        Sock s = new Sock(p.vm, nfd, d, ty, Math.max(pr, 0), p.pid, useRegistry);
        if (o.get(EAtom.of("debug")) == EAtom.TRUE) s.debug = true;
        return ETuple.of(EAtom.OK, s.ref);
    }

    private static int domainOf(Term t) {
        if (t == SockAddrs.INET) return Sockets.AF_INET;
        if (t == SockAddrs.INET6) return Sockets.AF_INET6;
        if (t == SockAddrs.LOCAL) return Sockets.AF_UNIX;
        return t instanceof ESmall n && n.value >= 0 && n.value == (int) n.value ? (int) n.value : -1;
    }

    private static int typeOf(Term t) {
        if (t instanceof EAtom a) return switch (a.name) {
            case "stream" -> Sockets.SOCK_STREAM;
            case "dgram" -> Sockets.SOCK_DGRAM;
            case "raw" -> Sockets.SOCK_RAW;
            case "seqpacket" -> 5;
            default -> -1;
        };
        return t instanceof ESmall n && n.value >= 0 && n.value == (int) n.value ? (int) n.value : -1;
    }

    /** An int SOL_SOCKET option of a descriptor, or -1 when it cannot be read (not a socket, bad fd). */
    private static int sockopt(int fd, int opt) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT), len = a.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, 4);
            return Libc.getsockopt(fd, Sockets.SOL_SOCKET, opt, v, len) == 0 ? v.get(JAVA_INT, 0) : -1;
        }
    }

    // ---- global ----

    private static Term command(Term c) {
        if (!(c instanceof EMap m)) throw ErlangException.badarg();
        Term cmd = m.get(EAtom.of("command")), data = m.get(EAtom.of("data"));
        if (cmd == EAtom.of("use_registry") && (data == EAtom.TRUE || data == EAtom.FALSE)) {
            useRegistryDefault = data == EAtom.TRUE;
            return EAtom.OK;
        }
        if ((cmd == EAtom.of("debug") || cmd == EAtom.of("socket_debug")) && (data == EAtom.TRUE || data == EAtom.FALSE)) return EAtom.OK;
        return ETuple.of(SockOps.INVALID, c);
    }

    private static Term globalInfo() {
        Map<String, Long> n = new LinkedHashMap<>();
        for (String k : List.of("num_cnt_bits", "num_dinet", "num_dinet6", "num_dlocal", "num_pip", "num_psctp", "num_ptcp",
                "num_pudp", "num_sockets", "num_tdgrams", "num_tseqpkgs", "num_tstreams")) n.put(k, 0L);
        n.put("num_cnt_bits", 64L);
        for (Sock s : Sock.all()) {
            n.merge("num_sockets", 1L, Long::sum);
            String dk = s.domain == Sockets.AF_INET ? "num_dinet" : s.domain == Sockets.AF_INET6 ? "num_dinet6"
                    : s.domain == Sockets.AF_UNIX ? "num_dlocal" : null;
            if (dk != null) n.merge(dk, 1L, Long::sum);
            String tk = s.type == Sockets.SOCK_STREAM ? "num_tstreams" : s.type == Sockets.SOCK_DGRAM ? "num_tdgrams"
                    : s.type == 5 ? "num_tseqpkgs" : null;
            if (tk != null) n.merge(tk, 1L, Long::sum);
            String pk = s.protocol == 6 ? "num_ptcp" : s.protocol == 17 ? "num_pudp" : s.protocol == 132 ? "num_psctp" : null;
            if (pk != null) n.merge(pk, 1L, Long::sum);
        }
        EMap counters = EMap.EMPTY;
        for (var e : n.entrySet()) counters = counters.put(EAtom.of(e.getKey()), ESmall.of(e.getValue()));
        return EMap.EMPTY.put(EAtom.of("counters"), counters).put(EAtom.of("debug"), EAtom.FALSE)
                .put(EAtom.of("iov_max"), ESmall.of(1024)).put(EAtom.of("iow"), EAtom.FALSE)
                .put(EAtom.of("socket_debug"), EAtom.FALSE)
                .put(EAtom.of("use_registry"), useRegistryDefault ? EAtom.TRUE : EAtom.FALSE);
    }
}
