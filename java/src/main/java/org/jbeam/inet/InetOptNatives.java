package org.jbeam.inet;

import java.util.HashMap;
import java.util.Map;

import org.jbeam.bif.BifTable;
import org.jbeam.code.BeamModule;
import org.jbeam.code.Export;
import org.jbeam.interp.Trap;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.term.*;

/**
 * prim_inet:setopts/2, getopts/2 and is_sockopt_val/2 done natively, and close/1's shortcut, for the common
 * options (ADR 0027). Every accepted
 * socket costs prim_inet a getopts of ten options on the listen socket and a setopts of the ten values
 * on the new one, every close a getopt(linger), every connect a setopts: in Erlang that is the option
 * tables (type_opt, enc_value, dec_value, enum_val…) walked per option, most of the acceptor's
 * instructions and of what the bytecode tier and C2 must compile before a fresh VM accepts at speed.
 *
 * <p>The natives produce the same control bytes prim_inet's encoders do and decode the reply as its
 * decoders do, for options of the simple types (bool, int, uint, time, linger, and the active, mode
 * and packet enumerations). Anything else — a raw or SCTP option, a value prim_inet would reject, a
 * port of another driver, a reply they do not expect — goes to prim_inet's own Erlang body
 * (BifTable.keepErlangBody), so errors and rare options behave exactly as in OTP.
 */
final class InetOptNatives {
    private InetOptNatives() {}

    private static final EAtom PRIM_INET = EAtom.of("prim_inet"), TRUE = EAtom.TRUE, FALSE = EAtom.FALSE,
            INFINITY = EAtom.of("infinity"), ACTIVE = EAtom.of("active"), MODE = EAtom.of("mode"),
            BINARY = EAtom.of("binary"), LIST = EAtom.of("list"), ONCE = EAtom.of("once"), MULTI = EAtom.of("multi");

    /** prim_inet's value types this class codes. */
    private enum Type { BOOL, INT, UINT, TIME, LINGER, ACTIVE, MODE, PACKET }

    private record Opt(EAtom name, int code, Type type) {}

    private static final Map<EAtom, Opt> BY_NAME = new HashMap<>();
    private static final Opt[] BY_CODE = new Opt[64];

    private static void opt(String name, int code, Type t) {
        Opt o = new Opt(EAtom.of(name), code, t);
        BY_NAME.put(o.name, o);
        BY_CODE[code] = o;
    }

    static {
        // prim_inet's enc_opt/dec_opt codes (inet_int.hrl) and type_opt_1 types.
        opt("reuseaddr", 0, Type.BOOL); opt("keepalive", 1, Type.BOOL); opt("dontroute", 2, Type.BOOL);
        opt("linger", 3, Type.LINGER); opt("broadcast", 4, Type.BOOL); opt("sndbuf", 6, Type.INT);
        opt("recbuf", 7, Type.INT); opt("priority", 8, Type.INT); opt("tos", 9, Type.INT);
        opt("nodelay", 10, Type.BOOL); opt("ipv6_v6only", 16, Type.BOOL); opt("buffer", 20, Type.INT);
        opt("header", 21, Type.UINT); opt("active", 22, Type.ACTIVE); opt("packet", 23, Type.PACKET);
        opt("mode", 24, Type.MODE); opt("exit_on_close", 26, Type.BOOL); opt("high_watermark", 27, Type.INT);
        opt("low_watermark", 28, Type.INT); opt("send_timeout", 30, Type.TIME); opt("delay_send", 31, Type.BOOL);
        opt("packet_size", 32, Type.UINT); opt("read_packets", 33, Type.UINT); opt("send_timeout_close", 35, Type.BOOL);
        opt("high_msgq_watermark", 36, Type.INT); opt("low_msgq_watermark", 37, Type.INT);
        opt("show_econnreset", 39, Type.BOOL); opt("line_delimiter", 40, Type.INT); opt("tclass", 41, Type.INT);
        opt("recvtos", 43, Type.BOOL); opt("recvtclass", 44, Type.BOOL); opt("ttl", 46, Type.INT);
        opt("recvttl", 47, Type.BOOL); opt("nopush", 48, Type.BOOL);
    }

    /** type_opt_1(packet)'s enumeration in its order (enum_name takes the first match when decoding). */
    private static final Object[][] PACKETS = {
            {0, 0}, {1, 1}, {2, 2}, {4, 3}, {"raw", 0}, {"sunrm", 5}, {"asn1", 4}, {"cdr", 6}, {"fcgi", 7},
            {"line", 8}, {"tpkt", 9}, {"http", 10}, {"httph", 11}, {"http_bin", 13}, {"httph_bin", 14},
            {"ssl", 12}, {"ssl_tls", 12}};
    private static final Term[] PACKET_NAME = new Term[16];
    private static final Map<Term, Integer> PACKET_VALUE = new HashMap<>();
    static {
        for (Object[] p : PACKETS) {
            Term name = p[0] instanceof Integer i ? ESmall.of(i) : EAtom.of((String) p[0]);
            int v = (Integer) p[1];
            PACKET_VALUE.putIfAbsent(name, v);
            if (PACKET_NAME[v] == null) PACKET_NAME[v] = name;
        }
    }

    static void register(BifTable t) {
        t.bif2("prim_inet", "setopts", InetOptNatives::setopts);
        t.keepErlangBody("prim_inet", "setopts", 2);
        t.bif2("prim_inet", "getopts", InetOptNatives::getopts);
        t.keepErlangBody("prim_inet", "getopts", 2);
        t.bif2("prim_inet", "is_sockopt_val", InetOptNatives::isSockoptVal);
        t.keepErlangBody("prim_inet", "is_sockopt_val", 2);
        t.bif1("prim_inet", "close", InetOptNatives::close);
        t.keepErlangBody("prim_inet", "close", 1);
        // Only exported functions: a native is callable from other modules (Runtime binds its export).
    }

    /** The call goes to prim_inet's own Erlang body of F/A. */
    private static Term erlang(ErlProcess p, String f, Term a, Term b) {
        BeamModule m = p.vm.code.current(PRIM_INET);
        Export x = m == null || m.erlangBodies == null ? null : m.erlangBodies.get(f);
        if (x == null) throw new IllegalStateException("prim_inet:" + f + " has no Erlang body");
        return Trap.call(x, new Term[] {a, b});
    }

    /** A call to prim_inet's local function F/A (its Erlang code, current version). */
    static Term local(ErlProcess p, String f, int arity, Term... args) {
        BeamModule m = p.vm.code.current(PRIM_INET);
        java.util.Map<String, Export> l = m == null ? null : m.erlangBodies;
        if (l == null) throw new IllegalStateException("prim_inet is not loaded with its natives");
        // erlangBodies is a ConcurrentHashMap (Transformer): cache an export for the local function.
        Export x = l.computeIfAbsent("local " + f + "/" + arity, k -> {
            org.jbeam.code.FuncInfo fi = m.function(EAtom.of(f), arity);
            if (fi == null) throw new IllegalStateException("prim_inet:" + f + "/" + arity + " missing");
            Export e = new Export(PRIM_INET, EAtom.of(f), arity);
            e.module = m;
            e.pc = fi.entry;
            return e;
        });
        return Trap.call(x, args);
    }

    // ---- close/1 ----

    /**
     * prim_inet:close/1 asks the driver for linger (getopt) and pending output (subscribe) and calls
     * close_port/1 when nothing is queued, whatever linger says. A tcp socket with an empty output
     * queue goes to close_port/1 at once: two control round trips and their coding less per close.
     */
    private static Term close(ErlProcess p, Term s) {
        Ports.Port pt = s instanceof EPort ? p.vm.ports.get(s) : null;
        if (pt != null && pt.driver instanceof TcpIo tcp && tcp.outputEmpty()) return local(p, "close_port", 1, s);
        BeamModule m = p.vm.code.current(PRIM_INET);
        return Trap.call(m.erlangBodies.get("close/1"), new Term[] {s});
    }

    private static Ports.Driver inetDriver(ErlProcess p, Term s) {
        if (!(s instanceof EPort)) return null;
        Ports.Port pt = p.vm.ports.get(s);
        return pt != null && (pt.driver instanceof TcpIo || pt.driver instanceof UdpInet) ? pt.driver : null;
    }

    // ---- setopts ----

    private static Term setopts(ErlProcess p, Term s, Term opts) {
        Ports.Driver d = inetDriver(p, s);
        byte[] buf = d == null ? null : encodeSet(opts);
        if (buf == null) return erlang(p, "setopts/2", s, opts);
        Term r = d.control(p, TcpInet.MAGIC + TcpInet.REQ_SETOPTS, buf);
        if (isOk(r)) return EAtom.OK;
        return errorOf(r);
    }

    /**
     * enc_opt_val: the options in reverse order (the list has the most recent first), each as its code
     * and value bytes; null where prim_inet would throw einval or this class does not code the option.
     */
    static byte[] encodeSet(Term opts) {
        java.util.ArrayList<byte[]> parts = new java.util.ArrayList<>();
        int total = 0;
        Term l = opts;
        while (l instanceof ECons c) {
            byte[] e = encodeOne(c.head);
            if (e == null) return null;
            parts.add(e);
            total += e.length;
            l = c.tail;
        }
        if (l != ENil.NIL) return null;
        byte[] out = new byte[total];
        int at = 0;
        for (int i = parts.size() - 1; i >= 0; i--) {
            byte[] e = parts.get(i);
            System.arraycopy(e, 0, out, at, e.length);
            at += e.length;
        }
        return out;
    }

    private static byte[] encodeOne(Term o) {
        if (o == BINARY) return code32(24, 1);
        if (o == LIST) return code32(24, 0);
        if (!(o instanceof ETuple t) || t.arity() != 2 || !(t.get(0) instanceof EAtom name)) return null;
        Opt opt = BY_NAME.get(name);
        if (opt == null) return null;
        Term v = t.get(1);
        switch (opt.type) {
            case BOOL: return v == TRUE ? code32(opt.code, 1) : v == FALSE ? code32(opt.code, 0) : null;
            case INT: return v instanceof ESmall n ? code32(opt.code, n.value) : null;
            case UINT: return v instanceof ESmall n && n.value >= 0 ? code32(opt.code, n.value) : null;
            case TIME:
                if (v == INFINITY) return code32(opt.code, -1);
                return v instanceof ESmall n && n.value >= 0 ? code32(opt.code, n.value) : null;
            case LINGER: {
                if (!(v instanceof ETuple lt) || lt.arity() != 2) return null;
                Term on = lt.get(0);
                if (on != TRUE && on != FALSE || !(lt.get(1) instanceof ESmall n)) return null;
                byte[] b = new byte[9];
                b[0] = (byte) opt.code;
                InetCodec.put32(b, 1, on == TRUE ? 1 : 0);
                InetCodec.put32(b, 5, n.value);
                return b;
            }
            case ACTIVE: {
                if (v == FALSE) return code32(opt.code, 0);
                if (v == TRUE) return code32(opt.code, 1);
                if (v == ONCE) return code32(opt.code, 2);
                if (v instanceof ESmall n && n.value >= -32768 && n.value < 32768) {
                    byte[] b = code32(opt.code, 3);
                    b = java.util.Arrays.copyOf(b, 7);
                    b[5] = (byte) (n.value >> 8);
                    b[6] = (byte) n.value;
                    return b;
                }
                return null;    // {active, multi}, a big N: prim_inet's own coding
            }
            case MODE: return v == BINARY ? code32(opt.code, 1) : v == LIST ? code32(opt.code, 0) : null;
            case PACKET: {
                Integer pv = PACKET_VALUE.get(v);
                return pv == null ? null : code32(opt.code, pv);
            }
            default: return null;
        }
    }

    private static byte[] code32(int code, long v) {
        byte[] b = new byte[5];
        b[0] = (byte) code;
        InetCodec.put32(b, 1, v);
        return b;
    }

    // ---- getopts ----

    private static Term getopts(ErlProcess p, Term s, Term opts) {
        Ports.Driver d = inetDriver(p, s);
        byte[] req = d == null ? null : encodeGet(opts);
        if (req == null) return erlang(p, "getopts/2", s, opts);
        Term r = d.control(p, TcpInet.MAGIC + TcpInet.REQ_GETOPTS, req);
        if (!isOk(r)) return errorOf(r);
        // getopts changes nothing in the driver: a reply this class does not decode is asked again by prim_inet.
        Term v = decode(((ECons) r).tail);
        return v == null ? erlang(p, "getopts/2", s, opts) : ETuple.of(EAtom.OK, v);
    }

    /** enc_opts for plain option names (no {raw, …} or record queries); null otherwise. */
    static byte[] encodeGet(Term opts) {
        int n = 0;
        for (Term l = opts; l instanceof ECons c; l = c.tail) n++;
        byte[] out = new byte[n];
        int i = 0;
        Term l = opts;
        while (l instanceof ECons c) {
            Opt o = c.head instanceof EAtom a ? BY_NAME.get(a) : null;
            if (o == null) return null;
            out[i++] = (byte) o.code;
            l = c.tail;
        }
        return l == ENil.NIL ? out : null;
    }

    /** dec_opt_val over the reply bytes (a list of small integers); null for anything unexpected. */
    static Term decode(Term bytes) {
        byte[] b = bytesOf(bytes);
        if (b == null) return null;
        Term[] out = new Term[b.length / 5];
        int n = 0, i = 0;
        while (i < b.length) {
            int code = b[i++] & 0xFF;
            Opt o = code < BY_CODE.length ? BY_CODE[code] : null;
            int need = o == null ? 0 : o.type == Type.LINGER ? 8 : 4;
            if (o == null || i + need > b.length) return null;
            long v = InetCodec.i32(b, i);
            i += 4;
            Term val;
            switch (o.type) {
                case BOOL -> val = v != 0 ? TRUE : FALSE;
                case INT -> val = ESmall.of(v);
                case UINT -> val = ESmall.of(v & 0xFFFFFFFFL);
                case TIME -> val = v == -1 ? INFINITY : ESmall.of(v);
                case LINGER -> { val = ETuple.of(v != 0 ? TRUE : FALSE, ESmall.of(InetCodec.i32(b, i))); i += 4; }
                case MODE -> { if (v != 0 && v != 1) return null; val = v == 1 ? BINARY : LIST; }
                case PACKET -> { if (v < 0 || v >= PACKET_NAME.length || PACKET_NAME[(int) v] == null) return null; val = PACKET_NAME[(int) v]; }
                case ACTIVE -> {
                    if (v == 0) val = FALSE;
                    else if (v == 1) val = TRUE;
                    else if (v == 2) val = ONCE;
                    else if (v == 3) {
                        if (i + 2 > b.length) return null;
                        val = ESmall.of(InetCodec.u16(b, i));
                        i += 2;
                    } else return null;
                }
                default -> { return null; }
            }
            out[n++] = ETuple.of(o.name, val);
        }
        EList l = ENil.NIL;
        for (int k = n - 1; k >= 0; k--) l = new ECons(out[k], l);
        return l;
    }

    /** A list of byte values as bytes; null if it is anything else. */
    private static byte[] bytesOf(Term list) {
        int n = 0;
        Term l = list;
        for (; l instanceof ECons c; l = c.tail) n++;
        if (l != ENil.NIL) return null;
        byte[] b = new byte[n];
        int i = 0;
        for (l = list; l instanceof ECons c; l = c.tail) {
            if (!(c.head instanceof ESmall x) || x.value < 0 || x.value > 255) return null;
            b[i++] = (byte) x.value;
        }
        return b;
    }

    // ---- is_sockopt_val/2 (inet checks every option given to connect/listen/open with it) ----

    private static Term isSockoptVal(ErlProcess p, Term opt, Term v) {
        Opt o = opt instanceof EAtom a ? BY_NAME.get(a) : null;
        if (o == null) return erlang(p, "is_sockopt_val/2", opt, v);
        boolean ok = switch (o.type) {
            case BOOL -> v == TRUE || v == FALSE;
            case INT -> v instanceof EInteger;
            case UINT -> v instanceof EInteger x && x.signum() >= 0;
            case TIME -> v == INFINITY || v instanceof EInteger x && x.signum() >= 0;
            case LINGER -> v instanceof ETuple t && t.arity() == 2 && (t.get(0) == TRUE || t.get(0) == FALSE) && t.get(1) instanceof EInteger;
            case ACTIVE -> v == TRUE || v == FALSE || v == ONCE || v == MULTI;
            case MODE -> v == BINARY || v == LIST;
            case PACKET -> PACKET_VALUE.containsKey(v);
        };
        return ok ? TRUE : FALSE;
    }

    // ---- ctl_cmd's reply ----

    private static boolean isOk(Term r) {
        return r instanceof ECons c && c.head instanceof ESmall tag && tag.value == InetCodec.REP_OK;
    }

    /** [?INET_REP_ERROR | Reason] as {error, list_to_atom(Reason)}. */
    private static Term errorOf(Term r) {
        StringBuilder sb = new StringBuilder();
        Term l = r instanceof ECons c ? c.tail : ENil.NIL;
        while (l instanceof ECons c && c.head instanceof ESmall ch) { sb.append((char) ch.value); l = c.tail; }
        return ETuple.of(EAtom.ERROR, EAtom.of(sb.toString()));
    }
}
