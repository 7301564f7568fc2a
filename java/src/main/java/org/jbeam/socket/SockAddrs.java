package org.jbeam.socket;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import org.jbeam.bindings.libc.Sockets;
import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.EMap;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * socket's address maps ({@code #{family => inet, addr => {127,0,0,1}, port => 80}}, as
 * prim_socket:enc_sockaddr/1 has merged them with their defaults) to native {@code struct sockaddr}
 * and back, as prim_socket_nif.c's esock_decode_sockaddr / esock_encode_sockaddr: inet, inet6 and
 * local; a value out of range makes the address invalid ({@code {invalid, sockaddr}}).
 */
final class SockAddrs {
    private SockAddrs() {}

    static final EAtom FAMILY = EAtom.of("family"), ADDR = EAtom.of("addr"), PORT = EAtom.of("port"),
            FLOWINFO = EAtom.of("flowinfo"), SCOPE_ID = EAtom.of("scope_id"), PATH = EAtom.of("path"),
            INET = EAtom.of("inet"), INET6 = EAtom.of("inet6"), LOCAL = EAtom.of("local"), UNSPEC = EAtom.of("unspec"),
            ANY = EAtom.of("any"), LOOPBACK = EAtom.of("loopback"), BROADCAST = EAtom.of("broadcast");
    /** sizeof(struct sockaddr_storage): enough for every family's address. */
    static final int STORAGE = 128;
    private static final int SUN_PATH = 108;
    private static final java.lang.foreign.ValueLayout.OfShort NET_SHORT = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);
    private static final java.lang.foreign.ValueLayout.OfInt NET_INT = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);

    /**
     * The native address for an encoded address map, or null when it is invalid (the NIF answers
     * {invalid, sockaddr}); {@code a} must hand out zeroed memory.
     */
    static MemorySegment encode(Term t, java.lang.foreign.SegmentAllocator a) {
        if (!(t instanceof EMap m)) return null;
        Term fam = m.get(FAMILY);
        if (fam == INET) {
            int port = port(m.get(PORT));
            byte[] ip = inet(m.get(ADDR));
            if (port < 0 || ip == null) return null;
            MemorySegment s = a.allocate(16);
            s.set(JAVA_SHORT, 0, (short) Sockets.AF_INET);
            s.set(NET_SHORT, 2, (short) port);
            MemorySegment.copy(ip, 0, s, JAVA_BYTE, 4, 4);
            return s;
        }
        if (fam == INET6) {
            int port = port(m.get(PORT));
            byte[] ip = inet6(m.get(ADDR));
            long flow = u32(m.get(FLOWINFO)), scope = u32(m.get(SCOPE_ID));
            if (port < 0 || ip == null || flow < 0 || scope < 0) return null;
            MemorySegment s = a.allocate(28);
            s.set(JAVA_SHORT, 0, (short) Sockets.AF_INET6);
            s.set(NET_SHORT, 2, (short) port);
            s.set(NET_INT, 4, (int) flow);
            MemorySegment.copy(ip, 0, s, JAVA_BYTE, 8, 16);
            s.set(JAVA_INT, 24, (int) scope);
            return s;
        }
        if (fam == LOCAL) {
            if (!(m.get(PATH) instanceof EBitString b) || b.extraBits() != 0 || b.byteSize() >= SUN_PATH) return null;
            byte[] p = b.toByteArray();
            // An abstract address (leading NUL) is exactly its bytes long; a path name is NUL-terminated.
            int len = 2 + p.length + (p.length > 0 && p[0] == 0 ? 0 : 1);
            MemorySegment s = a.allocate(len);
            s.set(JAVA_SHORT, 0, (short) Sockets.AF_UNIX);
            MemorySegment.copy(p, 0, s, JAVA_BYTE, 2, p.length);
            return s;
        }
        if (fam == UNSPEC) {
            MemorySegment s = a.allocate(16);
            s.set(JAVA_SHORT, 0, (short) Sockets.AF_UNSPEC);
            return s;
        }
        return null;
    }

    private static int port(Term t) {
        return t instanceof ESmall s && s.value >= 0 && s.value <= 65535 ? (int) s.value : -1;
    }

    private static long u32(Term t) {
        return t instanceof ESmall s && s.value >= 0 && s.value <= 0xFFFFFFFFL ? s.value : -1;
    }

    private static byte[] inet(Term t) {
        if (t == ANY) return new byte[4];
        if (t == LOOPBACK) return new byte[] {127, 0, 0, 1};
        if (t == BROADCAST) return new byte[] {-1, -1, -1, -1};
        if (!(t instanceof ETuple tp) || tp.arity() != 4) return null;
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (!(tp.get(i) instanceof ESmall s) || s.value < 0 || s.value > 255) return null;
            b[i] = (byte) s.value;
        }
        return b;
    }

    private static byte[] inet6(Term t) {
        byte[] b = new byte[16];
        if (t == ANY) return b;
        if (t == LOOPBACK) { b[15] = 1; return b; }
        if (!(t instanceof ETuple tp) || tp.arity() != 8) return null;
        for (int i = 0; i < 8; i++) {
            if (!(tp.get(i) instanceof ESmall s) || s.value < 0 || s.value > 65535) return null;
            b[2 * i] = (byte) (s.value >>> 8);
            b[2 * i + 1] = (byte) s.value;
        }
        return b;
    }

    /** The address map of the first {@code len} bytes of a native address (getsockname, recvfrom, accept). */
    static Term decode(MemorySegment s, int len) {
        int fam = len >= 2 ? s.get(JAVA_SHORT, 0) & 0xffff : Sockets.AF_UNSPEC;
        switch (fam) {
            case Sockets.AF_INET -> {
                Term[] ip = new Term[4];
                for (int i = 0; i < 4; i++) ip[i] = ESmall.of(s.get(JAVA_BYTE, 4 + i) & 0xff);
                return EMap.EMPTY.put(FAMILY, INET).put(PORT, ESmall.of(s.get(NET_SHORT, 2) & 0xffff))
                        .put(ADDR, ETuple.of(ip));
            }
            case Sockets.AF_INET6 -> {
                Term[] ip = new Term[8];
                for (int i = 0; i < 8; i++) ip[i] = ESmall.of(s.get(NET_SHORT, 8 + 2 * i) & 0xffff);
                return EMap.EMPTY.put(FAMILY, INET6).put(PORT, ESmall.of(s.get(NET_SHORT, 2) & 0xffff))
                        .put(ADDR, ETuple.of(ip)).put(FLOWINFO, ESmall.of(s.get(NET_INT, 4) & 0xFFFFFFFFL))
                        .put(SCOPE_ID, ESmall.of(s.get(JAVA_INT, 24) & 0xFFFFFFFFL));
            }
            case Sockets.AF_UNIX -> {
                int n = Math.max(0, len - 2);
                byte[] p = s.asSlice(2, n).toArray(JAVA_BYTE);
                int end = n;
                if (n > 0 && p[0] != 0) { end = 0; while (end < n && p[end] != 0) end++; }
                return EMap.EMPTY.put(FAMILY, LOCAL).put(PATH, EBitString.of(java.util.Arrays.copyOf(p, end)));
            }
            case Sockets.AF_UNSPEC -> {
                return EMap.EMPTY.put(FAMILY, UNSPEC).put(ADDR, EBitString.of(s.asSlice(2, Math.max(0, len - 2)).toArray(JAVA_BYTE)));
            }
            default -> {
                return EMap.EMPTY.put(FAMILY, ESmall.of(fam)).put(ADDR, EBitString.of(s.asSlice(2, Math.max(0, len - 2)).toArray(JAVA_BYTE)));
            }
        }
    }
}
