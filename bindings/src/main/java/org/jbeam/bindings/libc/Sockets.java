package org.jbeam.bindings.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@code sys/socket.h}, {@code netinet/in.h}, {@code netinet/tcp.h} constants (Linux x86-64,
 * glibc 2.36) and the {@code struct sockaddr_in} layout, with helpers to build and read one.
 */
public final class Sockets {
    private Sockets() {}

    public static final int AF_UNSPEC = 0, AF_UNIX = 1, AF_INET = 2, AF_INET6 = 10;
    public static final int SOCK_STREAM = 1, SOCK_DGRAM = 2, SOCK_RAW = 3, SOCK_NONBLOCK = 04000, SOCK_CLOEXEC = 02000000;
    public static final int SOL_SOCKET = 1, SO_REUSEADDR = 2, SO_KEEPALIVE = 9, SO_RCVBUF = 8, SO_SNDBUF = 7,
            SO_REUSEPORT = 15;
    public static final int IPPROTO_IP = 0, IPPROTO_TCP = 6, IPPROTO_UDP = 17, TCP_NODELAY = 1;
    public static final int MSG_PEEK = 2, MSG_DONTWAIT = 0x40, MSG_WAITALL = 0x100, MSG_NOSIGNAL = 0x4000;
    public static final int SHUT_RD = 0, SHUT_WR = 1, SHUT_RDWR = 2;
    public static final int INADDR_ANY = 0, INADDR_LOOPBACK = 0x7f000001;

    /** {@code struct sockaddr_in}: family (host order), port and address in network byte order. */
    public static final GroupLayout SOCKADDR_IN = MemoryLayout.structLayout(
            JAVA_SHORT.withName("sin_family"),
            JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN).withName("sin_port"),
            JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).withName("sin_addr"),
            MemoryLayout.sequenceLayout(8, JAVA_BYTE).withName("sin_zero")
    ).withName("sockaddr_in");

    /** A zeroed {@code sockaddr_in} for {@code ipv4} (host-order int, e.g. INADDR_LOOPBACK) and {@code port}. */
    public static MemorySegment sockaddrIn(Arena arena, int ipv4, int port) {
        MemorySegment s = arena.allocate(SOCKADDR_IN);
        s.set(JAVA_SHORT, 0, (short) AF_INET);
        s.set(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2, (short) port);
        s.set(JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN), 4, ipv4);
        return s;
    }
    public static int port(MemorySegment sockaddrIn) { return sockaddrIn.get(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2) & 0xffff; }
    public static int address(MemorySegment sockaddrIn) { return sockaddrIn.get(JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN), 4); }

    /** A {@code socklen_t} cell initialised to {@code len} (for accept/getsockname). */
    public static MemorySegment socklen(Arena arena, int len) {
        MemorySegment s = arena.allocate(JAVA_INT);
        s.set(JAVA_INT, 0, len);
        return s;
    }
}
