package org.jbeam.socket;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.bindings.libc.Libc;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.ECons;
import org.jbeam.term.EMap;
import org.jbeam.term.EPid;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Socket options of the socket NIF: nif_setopt/5 and nif_getopt/3,4 for the otp level (the NIF's own
 * settings) and the OS levels, and the option table nif_supports(options) hands prim_socket. An OS
 * option is known by its Linux level and number (what prim_socket encodes {Level, Name} to) and has a
 * value kind that says how an Erlang value maps to the setsockopt argument; options without a kind
 * here are listed as unsupported, as erts lists what its build lacks.
 */
final class SockOpts {
    private SockOpts() {}

    enum Kind { BOOL, INT, LINGER, TOS, STRING, GET_TYPE, GET_DOMAIN, GET_PROTOCOL }

    record Opt(String name, int num, Kind kind) {}

    static final int SOL_SOCKET = 1, SOL_IP = 0, SOL_IPV6 = 41, SOL_TCP = 6, SOL_UDP = 17;

    // Per level: "name num kind" for the options implemented, a bare name for those listed unsupported
    // (Linux x86-64 numbers; kinds: b boolean, i integer, l linger, t tos, s string, T/D/P type/domain/protocol).
    private static final String SOCKET_OPTS = "acceptconn 30 b, broadcast 6 b, debug 1 b, domain 39 D, dontroute 5 b,"
            + " keepalive 9 b, linger 13 l, oobinline 10 b, passcred 16 b, priority 12 i, protocol 38 P, rcvbuf 8 i,"
            + " rcvlowat 18 i, reuseaddr 2 b, reuseport 15 b, sndbuf 7 i, sndlowat 19 i, timestamp 29 b, type 3 T,"
            + " acceptfilter, bindtodevice, busy_poll, error, mark, peek_off, peercred, rcvbufforce, rcvtimeo, rxq_ovfl,"
            + " setfib, sndbufforce, sndtimeo";
    private static final String IP_OPTS = "freebind 15 b, hdrincl 3 b, minttl 21 i, mtu 14 i, multicast_all 49 b,"
            + " multicast_loop 34 b, multicast_ttl 33 i, nodefrag 22 b, pktinfo 8 b, recverr 11 b, recvopts 6 b,"
            + " recvorigdstaddr 20 b, recvtos 13 b, recvttl 12 b, retopts 7 b, router_alert 5 i, tos 1 t,"
            + " transparent 19 b, ttl 2 i, add_membership, add_source_membership, block_source, dontfrag,"
            + " drop_membership, drop_source_membership, msfilter, mtu_discover, multicast_if, options, pktoptions,"
            + " recvdstaddr, recvif, sendsrcaddr, unblock_source";
    private static final String IPV6_OPTS = "hoplimit 52 b, mtu 24 i, multicast_hops 18 i, multicast_loop 19 b,"
            + " recverr 25 b, recvhoplimit 51 b, recvpktinfo 49 b, recvtclass 66 b, router_alert 22 i, tclass 67 i,"
            + " unicast_hops 16 i, v6only 26 b, add_membership, addrform, auth_level, authhdr, checksum, drop_membership,"
            + " dstopts, esp_network_level, esp_trans_level, faith, flowinfo, hopopts, ipcomp_level, join_group,"
            + " leave_group, mtu_discover, multicast_if, pktoptions, portrange, rthdr, use_min_mtu";
    private static final String TCP_OPTS = "congestion 13 s, cork 3 b, maxseg 2 i, nodelay 1 b, info, keepcnt,"
            + " keepidle, keepintvl, md5sig, noopt, nopush, syncnt, user_timeout";
    private static final String UDP_OPTS = "cork 1 b";

    private record Level(List<Opt> yes, List<String> no) {}

    private static Level parse(String spec) {
        List<Opt> yes = new ArrayList<>();
        List<String> no = new ArrayList<>();
        for (String item : spec.split(",")) {
            String[] f = item.trim().split(" ");
            if (f.length == 1) { no.add(f[0]); continue; }
            Kind k = switch (f[2]) {
                case "b" -> Kind.BOOL;
                case "i" -> Kind.INT;
                case "l" -> Kind.LINGER;
                case "t" -> Kind.TOS;
                case "s" -> Kind.STRING;
                case "T" -> Kind.GET_TYPE;
                case "D" -> Kind.GET_DOMAIN;
                default -> Kind.GET_PROTOCOL;
            };
            yes.add(new Opt(f[0], Integer.parseInt(f[1]), k));
        }
        return new Level(yes, no);
    }

    private static final Level SOCKET = parse(SOCKET_OPTS), IP = parse(IP_OPTS), IPV6 = parse(IPV6_OPTS),
            TCP = parse(TCP_OPTS), UDP = parse(UDP_OPTS);

    private static List<Opt> level(int lvl) {
        return switch (lvl) {
            case SOL_SOCKET -> SOCKET.yes;
            case SOL_IP -> IP.yes;
            case SOL_IPV6 -> IPV6.yes;
            case SOL_TCP -> TCP.yes;
            case SOL_UDP -> UDP.yes;
            default -> List.of();
        };
    }

    private static Opt find(int lvl, int num) {
        for (Opt o : level(lvl)) if (o.num == num) return o;
        return null;
    }

    /** nif_supports(options): [{socket, Opts}, {LevelNum, Opts}], an Opt being {Name, Num} or a bare (unsupported) Name. */
    static Term table() {
        return ECons.of(ETuple.of(EAtom.of("socket"), levelList(SOCKET)), ETuple.of(ESmall.of(SOL_IP), levelList(IP)),
                ETuple.of(ESmall.of(SOL_IPV6), levelList(IPV6)), ETuple.of(ESmall.of(SOL_TCP), levelList(TCP)),
                ETuple.of(ESmall.of(SOL_UDP), levelList(UDP)));
    }

    private static Term levelList(Level lv) {
        List<Term> l = new ArrayList<>();
        for (Opt o : lv.yes) l.add(ETuple.of(EAtom.of(o.name), ESmall.of(o.num)));
        for (String n : lv.no) l.add(EAtom.of(n));
        return ECons.of(l);
    }

    static final EAtom SOCKET_LEVEL = EAtom.of("socket"), OTP = EAtom.of("otp"), VALUE = EAtom.of("value"),
            SOCKET_OPTION = EAtom.of("socket_option"), NOT_OWNER = EAtom.of("not_owner");
    static final ETuple INVALID_VALUE = ETuple.of(SockOps.INVALID, VALUE), INVALID_OPTION = ETuple.of(SockOps.INVALID, SOCKET_OPTION);

    private static int levelNum(Term level) {
        if (level == SOCKET_LEVEL) return SOL_SOCKET;
        if (level instanceof ESmall s && s.value == (int) s.value) return (int) s.value;
        throw org.jbeam.runtime.ErlangException.badarg();
    }

    private static int optNum(Term opt) {
        if (opt instanceof ESmall s && s.value == (int) s.value) return (int) s.value;
        throw org.jbeam.runtime.ErlangException.badarg();
    }

    // ---- setopt ----

    static Term setopt(Sock s, ErlProcess p, Term level, Term opt, Term value, boolean nativeValue) {
        if (level == OTP) return setOtp(s, p, optNum(opt), value);
        int lvl = levelNum(level), num = optNum(opt);
        synchronized (s) {
            if (s.closed) return SockOps.CLOSED;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v;
            if (nativeValue) {
                v = nativeArg(value, a);
            } else {
                Opt o = find(lvl, num);
                if (o == null || o.kind.name().startsWith("GET_")) return INVALID_OPTION; // unknown or read-only
                v = arg(o.kind, value, a);
            }
            if (v == null) return INVALID_VALUE;
            int r = Libc.setsockopt(s.fd, lvl, num, v, (int) v.byteSize());
            return r < 0 ? SockOps.error(r) : EAtom.OK;
        }
    }

    private static MemorySegment intArg(long n, Arena a) {
        MemorySegment v = a.allocate(JAVA_INT);
        v.set(JAVA_INT, 0, (int) n);
        return v;
    }

    private static MemorySegment nativeArg(Term value, Arena a) {
        if (value == EAtom.TRUE || value == EAtom.FALSE) return intArg(value == EAtom.TRUE ? 1 : 0, a);
        if (value instanceof ESmall n && n.value == (int) n.value) return intArg(n.value, a);
        if (value instanceof EBitString b && b.extraBits() == 0) {
            MemorySegment v = a.allocate(Math.max(1, b.byteSize()));
            MemorySegment.copy(b.array(), b.arrayOffset(), v, JAVA_BYTE, 0, b.byteSize());
            return v.asSlice(0, b.byteSize());
        }
        return null;
    }

    private static MemorySegment arg(Kind k, Term value, Arena a) {
        switch (k) {
            case BOOL -> {
                if (value != EAtom.TRUE && value != EAtom.FALSE) return null;
                return intArg(value == EAtom.TRUE ? 1 : 0, a);
            }
            case INT -> {
                return value instanceof ESmall n && n.value == (int) n.value ? intArg(n.value, a) : null;
            }
            case TOS -> {
                if (value instanceof ESmall n && n.value == (int) n.value) return intArg(n.value, a);
                if (!(value instanceof EAtom t)) return null;
                return switch (t.name) {
                    case "lowdelay" -> intArg(0x10, a);
                    case "throughput" -> intArg(0x08, a);
                    case "reliability" -> intArg(0x04, a);
                    case "mincost" -> intArg(0x02, a);
                    default -> null;
                };
            }
            case LINGER -> {
                MemorySegment v = a.allocate(8);
                if (value == EAtom.of("abort")) { v.set(JAVA_INT, 0, 1); return v; }
                if (!(value instanceof EMap m) || m.size() != 2) return null;
                Term on = m.get(EAtom.of("onoff")), secs = m.get(EAtom.of("linger"));
                if ((on != EAtom.TRUE && on != EAtom.FALSE) || !(secs instanceof ESmall n) || n.value < 0 || n.value > Integer.MAX_VALUE) return null;
                v.set(JAVA_INT, 0, on == EAtom.TRUE ? 1 : 0);
                v.set(JAVA_INT, 4, (int) n.value);
                return v;
            }
            case STRING -> {
                int len = ECons.length(value);
                if (len < 0 || len > 15) return null;
                byte[] b = new byte[len + 1];
                int i = 0;
                for (Term t : ECons.toArray(value)) {
                    if (!(t instanceof ESmall c) || c.value < 0 || c.value > 255) return null;
                    b[i++] = (byte) c.value;
                }
                MemorySegment v = a.allocate(b.length);
                MemorySegment.copy(b, 0, v, JAVA_BYTE, 0, b.length);
                return v;
            }
            default -> throw new IllegalStateException(k.name());
        }
    }

    private static Term setOtp(Sock s, ErlProcess p, int num, Term value) {
        synchronized (s) {
            if (s.closed) return SockOps.CLOSED;
            switch (num) {
                case 1001, 1002, 1010 -> {
                    if (value != EAtom.TRUE && value != EAtom.FALSE) return INVALID_VALUE;
                    boolean on = value == EAtom.TRUE;
                    if (num == 1001) s.debug = on;
                    else if (num == 1002) s.iow = on;
                    else if (s.useRegistry != on) {
                        s.useRegistry = on;
                        EPid r = Sock.registry;
                        if (r != null) s.vm.sendTo(r, ETuple.of(Sock.TAG, on ? Sock.ADD : Sock.DEL, s.term));
                    }
                    return EAtom.OK;
                }
                case 1003 -> {
                    if (!(value instanceof EPid np)) return INVALID_VALUE;
                    if (!p.pid.equals(s.owner)) return ETuple.of(EAtom.ERROR, ETuple.of(SockOps.INVALID, NOT_OWNER));
                    s.setOwner(np);
                    return EAtom.OK;
                }
                case 1004 -> {
                    long n = value instanceof ESmall i ? i.value
                            : value instanceof ETuple t && t.arity() == 2 && t.get(0) instanceof ESmall c && t.get(1) instanceof ESmall z
                                    && c.value > 0 ? c.value * z.value : -1;
                    if (n <= 0 || n > Integer.MAX_VALUE - 64) return INVALID_VALUE;
                    s.rbufsz = (int) n;
                    return EAtom.OK;
                }
                case 1006, 1007 -> {
                    if (!(value instanceof ESmall n) || n.value <= 0 || n.value > Integer.MAX_VALUE) return INVALID_VALUE;
                    if (num == 1006) s.rctrlsz = (int) n.value;
                    else s.wctrlsz = (int) n.value;
                    return EAtom.OK;
                }
                case 1009 -> {
                    s.meta = value;
                    return EAtom.OK;
                }
                default -> { return INVALID_OPTION; }
            }
        }
    }

    // ---- getopt ----

    static Term getopt(Sock s, Term level, Term opt, Term valueSpec) {
        if (level == OTP) return getOtp(s, optNum(opt));
        int lvl = levelNum(level), num = optNum(opt);
        synchronized (s) {
            if (s.closed) return SockOps.CLOSED;
        }
        Kind k;
        int size = 4;
        if (valueSpec != null) {
            if (valueSpec == EAtom.of("integer")) k = Kind.INT;
            else if (valueSpec == EAtom.of("boolean")) k = Kind.BOOL;
            else if (valueSpec instanceof ESmall n && n.value >= 0 && n.value <= 65536) { k = null; size = (int) n.value; }
            else if (valueSpec instanceof EBitString b && b.extraBits() == 0) { k = null; size = b.byteSize(); }
            else return INVALID_VALUE;
        } else {
            Opt o = find(lvl, num);
            if (o == null) return INVALID_OPTION;
            k = o.kind;
            switch (k) {
                case GET_TYPE: return ETuple.of(EAtom.OK, SocketNifs.typeAtom(s.type));
                case GET_DOMAIN: return ETuple.of(EAtom.OK, SocketNifs.domainAtom(s.domain));
                case GET_PROTOCOL: return ETuple.of(EAtom.OK, ESmall.of(s.protocol));
                case LINGER: size = 8; break;
                case STRING: size = 16; break;
                default: break;
            }
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, size)), len = a.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, size);
            int r = Libc.getsockopt(s.fd, lvl, num, v, len);
            if (r < 0) return SockOps.error(r);
            int n = len.get(JAVA_INT, 0);
            Term val;
            if (k == null) val = EBitString.of(v.asSlice(0, n).toArray(JAVA_BYTE));
            else val = switch (k) {
                case BOOL -> v.get(JAVA_INT, 0) != 0 ? EAtom.TRUE : EAtom.FALSE;
                case TOS -> switch (v.get(JAVA_INT, 0)) {
                    case 0x10 -> EAtom.of("lowdelay");
                    case 0x08 -> EAtom.of("throughput");
                    case 0x04 -> EAtom.of("reliability");
                    case 0x02 -> EAtom.of("mincost");
                    default -> ESmall.of(v.get(JAVA_INT, 0));
                };
                case LINGER -> EMap.EMPTY.put(EAtom.of("onoff"), v.get(JAVA_INT, 0) != 0 ? EAtom.TRUE : EAtom.FALSE)
                        .put(EAtom.of("linger"), ESmall.of(v.get(JAVA_INT, 4)));
                case STRING -> {
                    List<Term> cs = new ArrayList<>();
                    for (int i = 0; i < Math.max(0, n - 1); i++) cs.add(ESmall.of(v.get(JAVA_BYTE, i) & 0xff));
                    yield ECons.of(cs);
                }
                default -> ESmall.of(v.get(JAVA_INT, 0));
            };
            return ETuple.of(EAtom.OK, val);
        }
    }

    private static Term getOtp(Sock s, int num) {
        synchronized (s) {
            if (s.closed) return SockOps.CLOSED;
            Term v = switch (num) {
                case 1001 -> s.debug ? EAtom.TRUE : EAtom.FALSE;
                case 1002 -> s.iow ? EAtom.TRUE : EAtom.FALSE;
                case 1003 -> s.owner;
                case 1004 -> ESmall.of(s.rbufsz);
                case 1006 -> ESmall.of(s.rctrlsz);
                case 1007 -> ESmall.of(s.wctrlsz);
                case 1008 -> ESmall.of(s.fd);
                case 1009 -> s.meta;
                case 1010 -> s.useRegistry ? EAtom.TRUE : EAtom.FALSE;
                case 1999 -> SocketNifs.domainAtom(s.domain);
                default -> null;
            };
            return v == null ? INVALID_OPTION : ETuple.of(EAtom.OK, v);
        }
    }
}
