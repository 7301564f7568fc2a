package org.jbeam.bindings.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@code getifaddrs(3)} of glibc 2.36 (Linux x86-64): the list in the C library's order, each entry's
 * name, flags and addresses copied out before {@code freeifaddrs}. {@code struct ifaddrs} is
 * {next, name, flags (unsigned int, padded), addr, netmask, broadaddr/dstaddr union, data}.
 */
public final class IfAddrs {
    private IfAddrs() {}

    public static final int AF_PACKET = 17;
    public static final int IFF_UP = 0x1, IFF_BROADCAST = 0x2, IFF_LOOPBACK = 0x8, IFF_POINTOPOINT = 0x10,
            IFF_RUNNING = 0x40, IFF_MULTICAST = 0x1000;

    /** One address of an interface: family, and the raw address bytes (4 or 16 for IP, the hardware address for AF_PACKET). */
    public record Addr(int family, byte[] bytes) {}

    /** One getifaddrs entry. Any address may be null. */
    public record Entry(String name, int flags, Addr addr, Addr netmask, Addr broadOrDst) {}

    private static final class H {
        static final Linker L = Linker.nativeLinker();
        static final MethodHandle GET = L.downcallHandle(L.defaultLookup().find("getifaddrs").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle FREE = L.downcallHandle(L.defaultLookup().find("freeifaddrs").orElseThrow(),
                FunctionDescriptor.ofVoid(ADDRESS));
    }

    /** The interfaces' entries, or null if getifaddrs failed. */
    public static List<Entry> list() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment head = a.allocate(ADDRESS);
            if ((int) H.GET.invokeExact(head) != 0) return null;
            MemorySegment first = head.get(ADDRESS, 0);
            try {
                List<Entry> out = new ArrayList<>();
                for (MemorySegment p = first; !p.equals(MemorySegment.NULL); ) {
                    MemorySegment e = p.reinterpret(56);
                    String name = e.get(ADDRESS, 8).reinterpret(256).getString(0);
                    int flags = e.get(JAVA_INT, 16);
                    out.add(new Entry(name, flags, sockaddr(e.get(ADDRESS, 24)), sockaddr(e.get(ADDRESS, 32)),
                            sockaddr(e.get(ADDRESS, 40))));
                    p = e.get(ADDRESS, 0);
                }
                return out;
            } finally {
                H.FREE.invokeExact(first);
            }
        } catch (Throwable t) {
            return null;
        }
    }

    private static Addr sockaddr(MemorySegment sa) {
        if (sa.equals(MemorySegment.NULL)) return null;
        MemorySegment s = sa.reinterpret(28);
        int family = s.get(JAVA_SHORT, 0) & 0xFFFF;
        return switch (family) {
            case Sockets.AF_INET -> new Addr(family, s.asSlice(4, 4).toArray(JAVA_BYTE));
            case Sockets.AF_INET6 -> new Addr(family, s.asSlice(8, 16).toArray(JAVA_BYTE));
            case AF_PACKET -> {   // sockaddr_ll: halen at 11, address at 12 (at most 8 bytes)
                int len = Math.min(s.get(JAVA_BYTE, 11) & 0xFF, 8);
                yield new Addr(family, s.asSlice(12, len).toArray(JAVA_BYTE));
            }
            default -> new Addr(family, new byte[0]);
        };
    }
}
