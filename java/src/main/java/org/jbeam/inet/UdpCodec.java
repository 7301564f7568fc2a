package org.jbeam.inet;

import java.net.Inet4Address;
import java.net.InetSocketAddress;

import org.jbeam.term.*;

/** udp_inet's encodings: addresses as inet_drv reports them, byte lists, getstat replies (split from {@link UdpInet}). */
final class UdpCodec {
    private UdpCodec() {}

    /** A NIO sender address as a tuple (a v4-mapped IPv6 address comes out as a 4-tuple: see ADR 0040). */
    static Term ipTuple(InetSocketAddress a) {
        byte[] ip = a.getAddress().getAddress();
        if (a.getAddress() instanceof Inet4Address) {
            return ETuple.of(ESmall.of(ip[0] & 0xFF), ESmall.of(ip[1] & 0xFF), ESmall.of(ip[2] & 0xFF), ESmall.of(ip[3] & 0xFF));
        }
        Term[] t = new Term[8];
        for (int i = 0; i < 8; i++) t[i] = ESmall.of(InetCodec.u16(ip, 2 * i));
        return ETuple.of(t);
    }

    /** inet_drv's encoding of an address (what prim_inet's get_addr decodes): [Family, P1, P0 | IP bytes]. */
    static byte[] encodeAddr(Term ip, int port) {
        ETuple t = (ETuple) ip;
        boolean v4 = t.arity() == 4;
        byte[] r = new byte[3 + (v4 ? 4 : 16)];
        r[0] = (byte) (v4 ? InetCodec.AF_INET : InetCodec.AF_INET6);
        r[1] = (byte) (port >>> 8);
        r[2] = (byte) port;
        for (int i = 0; i < t.arity(); i++) {
            int x = (int) ((ESmall) t.get(i)).value;
            if (v4) r[3 + i] = (byte) x;
            else { r[3 + 2 * i] = (byte) (x >>> 8); r[4 + 2 * i] = (byte) x; }
        }
        return r;
    }

    /** {@code n} bytes of {@code b} from {@code off} as a byte list ending in {@code tail}. */
    static Term bytes(byte[] b, int off, int n, Term tail) {
        Term l = tail;
        for (int i = off + n - 1; i >= off; i--) l = new ECons(ESmall.of(b[i] & 0xFF), l);
        return l;
    }

    /** Length of the encoded address at the start of a sendto command (enc_value(set, addr, _)). */
    static int addrLen(byte[] d) {
        if (d.length < 1) return -1;
        return switch (d[0]) {
            case InetCodec.AF_INET -> 7;
            case InetCodec.AF_INET6 -> 27;
            case InetCodec.AF_ANY, InetCodec.AF_LOOPBACK -> 3;
            default -> -1;
        };
    }
}
