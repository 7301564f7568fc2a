package org.jbeam.inet;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/**
 * The option coding of the native prim_inet:setopts/getopts (ADR 0027) against the bytes prim_inet's
 * encoders produce (codes and values from OTP 25's inet_int.hrl and prim_inet's type_opt_1), and the
 * cases it must leave to prim_inet's Erlang body (null). The differential program inet_opts_native
 * checks the same against erl end to end.
 */
class InetOptNativesTest {
    private static Term list(Term... t) { return ECons.of(java.util.List.of(t)); }
    private static Term opt(String n, Term v) { return ETuple.of(EAtom.of(n), v); }
    private static Term a(String n) { return EAtom.of(n); }
    private static Term i(long v) { return ESmall.of(v); }
    private static byte[] b(int... v) { byte[] r = new byte[v.length]; for (int k = 0; k < v.length; k++) r[k] = (byte) v[k]; return r; }

    @Test
    void setoptsCodesOldestFirst() {
        // prim_inet:enc_opt_val reverses the list: the most recent option (first) is applied last.
        assertArrayEquals(b(24, 0, 0, 0, 1, 22, 0, 0, 0, 0), InetOptNatives.encodeSet(list(opt("active", a("false")), a("binary"))));
        assertArrayEquals(b(22, 0, 0, 0, 2), InetOptNatives.encodeSet(list(opt("active", a("once")))));
        assertArrayEquals(b(22, 0, 0, 0, 3, 0xFF, 0xFD), InetOptNatives.encodeSet(list(opt("active", i(-3)))));
        assertArrayEquals(b(3, 0, 0, 0, 1, 0, 0, 0, 7), InetOptNatives.encodeSet(list(opt("linger", ETuple.of(a("true"), i(7))))));
        assertArrayEquals(b(30, 0xFF, 0xFF, 0xFF, 0xFF), InetOptNatives.encodeSet(list(opt("send_timeout", a("infinity")))));
        assertArrayEquals(b(23, 0, 0, 0, 3), InetOptNatives.encodeSet(list(opt("packet", i(4)))));
        assertArrayEquals(b(23, 0, 0, 0, 8), InetOptNatives.encodeSet(list(opt("packet", a("line")))));
        assertArrayEquals(b(7, 0, 1, 0, 0), InetOptNatives.encodeSet(list(opt("recbuf", i(65536)))));
        assertArrayEquals(b(), InetOptNatives.encodeSet(ENil.NIL));
    }

    @Test
    void setoptsLeavesTheRestToPrimInet() {
        for (Term bad : new Term[] {opt("active", a("multi")), opt("active", i(40000)), opt("keepalive", i(1)),
                opt("packet", i(3)), opt("header", i(-1)), opt("send_timeout", i(-5)), opt("linger", a("true")),
                opt("foo", i(1)), a("foo"), opt("deliver", a("term")), ETuple.of(a("raw"), i(1), i(2), i(3)),
                opt("sndbuf", EInteger.of(java.math.BigInteger.ONE.shiftLeft(70)))}) {
            assertNull(InetOptNatives.encodeSet(list(bad)), bad.toString());
        }
        assertNull(InetOptNatives.encodeSet(new ECons(opt("active", a("true")), a("tail"))));
    }

    @Test
    void getoptsRequestAndReply() {
        assertArrayEquals(b(22, 10, 3, 46), InetOptNatives.encodeGet(list(a("active"), a("nodelay"), a("linger"), a("ttl"))));
        assertNull(InetOptNatives.encodeGet(list(a("active"), a("bogus"))));
        assertNull(InetOptNatives.encodeGet(list(opt("active", a("true")))));
        assertNull(InetOptNatives.encodeGet(new ECons(a("active"), a("x"))));
        Term reply = InetCodec.ok(b(22, 0, 0, 0, 3, 0xFF, 0xFF, 10, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 3,
                30, 0xFF, 0xFF, 0xFF, 0xFF, 23, 0, 0, 0, 12, 24, 0, 0, 0, 1, 8, 0xFF, 0xFF, 0xFF, 0xFE));
        Term v = InetOptNatives.decode(((ECons) reply).tail);
        assertEquals(list(opt("active", i(65535)), opt("nodelay", a("true")), opt("linger", ETuple.of(a("false"), i(3))),
                opt("send_timeout", a("infinity")), opt("packet", a("ssl")), opt("mode", a("binary")), opt("priority", i(-2))), v);
        // values prim_inet's decoder would not take, and codes it does not know, go to prim_inet
        assertNull(InetOptNatives.decode(((ECons) InetCodec.ok(b(24, 0, 0, 0, 7))).tail));
        assertNull(InetOptNatives.decode(((ECons) InetCodec.ok(b(34, 0, 0, 0, 0))).tail));
        assertNull(InetOptNatives.decode(((ECons) InetCodec.ok(b(22, 0, 0))).tail));
    }
}
