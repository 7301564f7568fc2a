package org.jbeam.inet;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

import org.jbeam.term.*;

/**
 * The inet driver's control-reply and address encodings (inet_int.hrl): replies are byte lists
 * starting with INET_REP_OK / INET_REP_ERROR; addresses are a family byte, a 16-bit port and the IP bytes.
 */
final class InetCodec {
    private InetCodec() {}

    static final int REP_ERROR = 0, REP_OK = 1;
    static final int AF_INET = 1, AF_INET6 = 2, AF_ANY = 3, AF_LOOPBACK = 4;

    static Term ok(byte... rest) {
        EList l = ENil.NIL;
        for (int i = rest.length - 1; i >= 0; i--) l = new ECons(ESmall.of(rest[i] & 0xFF), l);
        return new ECons(ESmall.of(REP_OK), l);
    }

    static Term error(String reason) {
        EList l = ENil.NIL;
        for (int i = reason.length() - 1; i >= 0; i--) l = new ECons(ESmall.of(reason.charAt(i)), l);
        return new ECons(ESmall.of(REP_ERROR), l);
    }

    static int u16(byte[] d, int i) { return ((d[i] & 0xFF) << 8) | (d[i + 1] & 0xFF); }

    static int i32(byte[] d, int i) {
        return ((d[i] & 0xFF) << 24) | ((d[i + 1] & 0xFF) << 16) | ((d[i + 2] & 0xFF) << 8) | (d[i + 3] & 0xFF);
    }

    static void put32(byte[] d, int i, long v) {
        d[i] = (byte) (v >>> 24); d[i + 1] = (byte) (v >>> 16); d[i + 2] = (byte) (v >>> 8); d[i + 3] = (byte) v;
    }

    /** Decodes an address at {@code d[off]} (enc_value(set, addr, _)) for a socket of {@code family}. */
    static InetSocketAddress decodeAddr(byte[] d, int off, int family) throws UnknownHostException {
        int af = d[off] & 0xFF;
        int port = u16(d, off + 1);
        return switch (af) {
            case AF_INET -> new InetSocketAddress(InetAddress.getByAddress(java.util.Arrays.copyOfRange(d, off + 3, off + 7)), port);
            case AF_INET6 -> new InetSocketAddress(Inet6Address.getByAddress(null, java.util.Arrays.copyOfRange(d, off + 3, off + 19), null), port);
            case AF_ANY -> new InetSocketAddress(InetAddress.getByAddress(new byte[family == AF_INET6 ? 16 : 4]), port);
            case AF_LOOPBACK -> {
                byte[] a = new byte[family == AF_INET6 ? 16 : 4];
                if (family == AF_INET6) a[15] = 1; else { a[0] = 127; a[3] = 1; }
                yield new InetSocketAddress(InetAddress.getByAddress(a), port);
            }
            default -> throw new UnknownHostException("family " + af);
        };
    }

    /** Encodes a socket address as the NAME/PEER replies do: family, port, IP bytes. */
    static byte[] encodeAddr(SocketAddress sa) {
        InetSocketAddress a = (InetSocketAddress) sa;
        byte[] ip = a.getAddress().getAddress();
        byte[] r = new byte[3 + ip.length];
        r[0] = (byte) (a.getAddress() instanceof Inet4Address ? AF_INET : AF_INET6);
        r[1] = (byte) (a.getPort() >>> 8);
        r[2] = (byte) a.getPort();
        System.arraycopy(ip, 0, r, 3, ip.length);
        return r;
    }

    /** The POSIX error name of an I/O failure, as erl_errno_id gives it. */
    static String errno(IOException e) {
        if (e instanceof java.net.ConnectException) return "econnrefused";
        if (e instanceof java.net.NoRouteToHostException) return "ehostunreach";
        if (e instanceof java.nio.channels.ClosedChannelException) return "closed";
        String m = String.valueOf(e.getMessage());
        if (m.contains("Too many open files")) return m.contains("in system") ? "enfile" : "emfile";
        if (m.contains("already in use")) return "eaddrinuse";
        if (m.contains("assign requested")) return "eaddrnotavail";
        if (m.contains("reset")) return "econnreset";
        if (m.contains("Broken pipe")) return "epipe";
        if (m.contains("refused")) return "econnrefused";
        if (m.contains("unreachable")) return "enetunreach";
        if (m.contains("Permission denied")) return "eacces";
        if (m.contains("timed out")) return "etimedout";
        if (m.contains("too long")) return "emsgsize";
        if (m.contains("not supported") || m.contains("Protocol family")) return "eafnosupport";
        return "einval";
    }

    /** gethostname(2) as inet_drv answers REQ_GETHOSTNAME (the kernel's host name, as erl reports it). */
    static byte[] hostname() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).trim().getBytes();
        } catch (java.io.IOException e) {
            return "localhost".getBytes();
        }
    }

    /** INET_REQ_GETSTAT's reply for the requested counters ({@code sendPend}: bytes queued, 0 for UDP). */
    static byte[] stats(byte[] req, long recvCnt, long recvMax, long recvOct, long sendCnt, long sendMax, long sendOct, long sendPend) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte b : req) {
            long v = switch (b) {
                case 1 -> recvCnt; case 2 -> recvMax; case 3 -> recvCnt == 0 ? 0 : recvOct / recvCnt;
                case 5 -> sendCnt; case 6 -> sendMax; case 7 -> sendCnt == 0 ? 0 : sendOct / sendCnt; case 8 -> sendPend;
                case 9 -> recvOct; case 10 -> sendOct; default -> 0;
            };
            out.write(b);
            if (b == 9 || b == 10) for (int s = 56; s >= 32; s -= 8) out.write((int) (v >>> s));
            for (int s = 24; s >= 0; s -= 8) out.write((int) (v >>> s));
        }
        return out.toByteArray();
    }
}
