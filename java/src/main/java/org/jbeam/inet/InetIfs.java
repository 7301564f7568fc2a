package org.jbeam.inet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jbeam.bindings.libc.IfAddrs;
import org.jbeam.bindings.libc.Sockets;
import org.jbeam.term.Term;

/**
 * The interface queries of inet_drv that prim_inet sends to any inet port: INET_REQ_GETIFADDRS
 * (inet:getifaddrs/0) and INET_REQ_GETIFLIST (inet:getiflist/0), answered from getifaddrs(3) in the
 * byte format inet_drv.c produces, which prim_inet decodes (build_ifaddrs, build_iflist).
 */
final class InetIfs {
    private InetIfs() {}

    static final int REQ_GETIFLIST = 21, REQ_IFGET = 22, REQ_GETIFADDRS = 25;
    private static final int IFOPT_ADDR = 1, IFOPT_BROADADDR = 2, IFOPT_DSTADDR = 3, IFOPT_MTU = 4, IFOPT_NETMASK = 5,
            IFOPT_FLAGS = 6, IFOPT_HWADDR = 7;
    private static final int INET_AF_INET = 1, INET_AF_INET6 = 2;

    /** The reply to {@code cmd} with request bytes {@code d}, or null if it is not an interface query. */
    static Term control(int cmd, byte[] d) {
        if (cmd != REQ_GETIFADDRS && cmd != REQ_GETIFLIST && cmd != REQ_IFGET) return null;
        List<IfAddrs.Entry> es = IfAddrs.list();
        if (es == null) return InetCodec.error("einval");
        if (cmd == REQ_IFGET) {
            byte[] r = ifget(es, d);
            return r == null ? InetCodec.error("einval") : InetCodec.ok(r);
        }
        return InetCodec.ok(cmd == REQ_GETIFADDRS ? ifaddrs(es) : iflist(es));
    }

    /**
     * INET_REQ_IFGET (inet:ifget/2,3): the name (length byte, bytes), then option codes. Each option
     * the interface has is answered in request order, as inet_drv's SIOCGIF* ioctls: the first IPv4
     * address, its netmask, broadcast and destination address,
     * flags, MTU, hardware address. What it lacks is left out (flags are always answered).
     */
    private static byte[] ifget(List<IfAddrs.Entry> es, byte[] d) {
        if (d.length < 1 || d.length < 1 + (d[0] & 0xFF)) return null;
        String name = new String(d, 1, d[0] & 0xFF, StandardCharsets.UTF_8);
        IfAddrs.Entry any = null, v4 = null, link = null;
        for (IfAddrs.Entry e : es) {
            if (!e.name().equals(name)) continue;
            if (any == null) any = e;
            if (v4 == null && e.addr() != null && e.addr().family() == Sockets.AF_INET) v4 = e;
            if (link == null && e.addr() != null && e.addr().family() == IfAddrs.AF_PACKET) link = e;
        }
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (int i = 1 + (d[0] & 0xFF); i < d.length; i++) {
            int opt = d[i] & 0xFF;
            switch (opt) {
                case IFOPT_ADDR -> { if (v4 != null) addr(o, IFOPT_ADDR, v4.addr()); }
                case IFOPT_NETMASK -> { if (v4 != null && v4.netmask() != null) addr(o, IFOPT_NETMASK, v4.netmask()); }
                // Linux's SIOCGIFBRDADDR gives 0.0.0.0 without a broadcast address, and
                // SIOCGIFDSTADDR the local address unless the link is point-to-point.
                case IFOPT_BROADADDR -> {
                    if (v4 != null) addr(o, IFOPT_BROADADDR, (v4.flags() & IfAddrs.IFF_BROADCAST) != 0 && v4.broadOrDst() != null
                            ? v4.broadOrDst() : new IfAddrs.Addr(Sockets.AF_INET, new byte[4]));
                }
                case IFOPT_DSTADDR -> {
                    if (v4 != null) addr(o, IFOPT_DSTADDR, (v4.flags() & IfAddrs.IFF_POINTOPOINT) != 0 && v4.broadOrDst() != null
                            ? v4.broadOrDst() : v4.addr());
                }
                case IFOPT_FLAGS -> { // answered even for an unknown interface (no flags), as inet_drv
                    o.write(IFOPT_FLAGS);
                    put32(o, any == null ? 0 : flags(any.flags()));
                }
                case IFOPT_MTU -> {
                    int mtu = any == null ? -1 : mtu(name);
                    if (mtu >= 0) { o.write(IFOPT_MTU); put32(o, mtu); }
                }
                case IFOPT_HWADDR -> {
                    if (link != null) hwaddr(o, link.addr().bytes());
                }
                default -> { return null; }
            }
        }
        return o.toByteArray();
    }

    /** SIOCGIFMTU's answer, through the JDK (which asks the same ioctl); -1 when unknown. */
    private static int mtu(String name) {
        try {
            java.net.NetworkInterface ni = java.net.NetworkInterface.getByName(name);
            return ni == null ? -1 : ni.getMTU();
        } catch (java.net.SocketException e) {
            return -1;
        }
    }

    private static void hwaddr(ByteArrayOutputStream o, byte[] b) {
        o.write(IFOPT_HWADDR);
        o.write(b.length >>> 8);
        o.write(b.length);
        o.writeBytes(b);
    }

    /** Per entry: name NUL, flags, then its IP address, netmask and broadcast/destination, or its hardware address; NUL. */
    private static byte[] ifaddrs(List<IfAddrs.Entry> es) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (IfAddrs.Entry e : es) {
            o.writeBytes(e.name().getBytes(StandardCharsets.UTF_8));
            o.write(0);
            o.write(IFOPT_FLAGS);
            put32(o, flags(e.flags()));
            IfAddrs.Addr a = e.addr();
            if (a != null && (a.family() == Sockets.AF_INET || a.family() == Sockets.AF_INET6)) {
                addr(o, IFOPT_ADDR, a);
                if (e.netmask() != null) addr(o, IFOPT_NETMASK, e.netmask());
                if ((e.flags() & IfAddrs.IFF_POINTOPOINT) != 0) {
                    if (e.broadOrDst() != null) addr(o, IFOPT_DSTADDR, e.broadOrDst());
                } else if ((e.flags() & IfAddrs.IFF_BROADCAST) != 0 && e.broadOrDst() != null) {
                    addr(o, IFOPT_BROADADDR, e.broadOrDst());
                }
            } else if (a != null && a.family() == IfAddrs.AF_PACKET && a.bytes().length > 0) {
                hwaddr(o, a.bytes());
            }
            o.write(0);
        }
        return o.toByteArray();
    }

    /** The names of the interfaces with an IPv4 address (SIOCGIFCONF's list), each NUL-terminated. */
    private static byte[] iflist(List<IfAddrs.Entry> es) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (IfAddrs.Entry e : es) {
            if (e.addr() == null || e.addr().family() != Sockets.AF_INET) continue;
            o.writeBytes(e.name().getBytes(StandardCharsets.UTF_8));
            o.write(0);
        }
        return o.toByteArray();
    }

    private static void addr(ByteArrayOutputStream o, int opt, IfAddrs.Addr a) {
        if (a.family() != Sockets.AF_INET && a.family() != Sockets.AF_INET6) return;
        o.write(opt);
        o.write(a.family() == Sockets.AF_INET ? INET_AF_INET : INET_AF_INET6);
        o.writeBytes(a.bytes());
    }

    /** inet_drv's IFGET_FLAGS: the C flags as INET_IFF_* bits. */
    private static int flags(int c) {
        int f = 0;
        if ((c & IfAddrs.IFF_UP) != 0) f |= 0x1;
        if ((c & IfAddrs.IFF_BROADCAST) != 0) f |= 0x2;
        if ((c & IfAddrs.IFF_LOOPBACK) != 0) f |= 0x4;
        if ((c & IfAddrs.IFF_POINTOPOINT) != 0) f |= 0x8;
        if ((c & IfAddrs.IFF_RUNNING) != 0) f |= 0x10;
        if ((c & IfAddrs.IFF_MULTICAST) != 0) f |= 0x20;
        return f;
    }

    private static void put32(ByteArrayOutputStream o, int v) {
        o.write(v >>> 24); o.write(v >>> 16); o.write(v >>> 8); o.write(v);
    }
}
