package org.jbeam.inet;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import org.jbeam.bindings.libc.Libc;
import org.jbeam.io.PollRing;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The io_uring receive side of one udp_inet socket (ADR 0040): a {@link PollRing} key that keeps an
 * IORING_OP_RECVMSG in flight while the driver wants datagrams, and the off-heap memory that receive
 * uses. One malloc'd block holds the {@code struct msghdr}, its single {@code struct iovec}, a
 * {@code sockaddr_storage} for the sender's address and the datagram buffer (64 KiB: any datagram fits;
 * the driver truncates it to its buffer option when it takes it, as erts' recvfrom into a buffer of
 * that size does, so a buffer change applies also to a receive already in flight). malloc leaves the
 * block's pages untouched until the kernel writes a datagram there, so a socket of small datagrams
 * keeps one or two resident pages. The block is allocated when the socket first wants data (a socket
 * that only sends has none) and freed only by the key's release action, which PollRing runs once no
 * receive of the key is in flight, so the kernel never writes into freed memory.
 *
 * <p>The driver touches the block only under its monitor and only while no receive is in flight
 * (inside {@link PollRing.Listener#received}, or before the first receive is wanted).
 */
final class UdpRing {
    private static final int IOV = 64, NAME = 80, NAME_LEN = 128, DATA = 256;
    static final int DATA_MAX = 65536;
    private static final java.lang.foreign.ValueLayout.OfShort BE_SHORT = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);

    private MemorySegment mem;
    final PollRing.Key key;
    /** The last sender's address and its tuple: an echo's peer is the same datagram after datagram. */
    private long lastV4 = -1;
    private Term lastIp;

    UdpRing(PollRing ring, int fd, PollRing.Listener listener) {
        key = ring.register(fd, listener, 0);
    }

    /** Turns the ring's receive on or off, allocating the msghdr block the first time it is turned on. */
    void wantRecv(boolean on) {
        if (on && mem == null) {
            mem = Libc.malloc(DATA + DATA_MAX);
            long base = mem.address();
            mem.set(JAVA_LONG, 0, base + NAME);         // msg_name
            mem.set(JAVA_LONG, 16, base + IOV);         // msg_iov
            mem.set(JAVA_LONG, 24, 1);                  // msg_iovlen
            mem.set(JAVA_LONG, 32, 0);                  // msg_control
            mem.set(JAVA_LONG, 40, 0);                  // msg_controllen
            mem.set(JAVA_LONG, IOV, base + DATA);       // iov_base
            mem.set(JAVA_LONG, IOV + 8, DATA_MAX);      // iov_len
            prepare();
            key.recvMsg(mem);
        }
        key.wantRecv(on);
    }

    /** Resets what the kernel writes back (name length, flags) before the next receive. */
    void prepare() {
        mem.set(JAVA_INT, 8, NAME_LEN);             // msg_namelen
        mem.set(JAVA_INT, 48, 0);                   // msg_flags
    }

    /** The {@code n} bytes just received. */
    byte[] data(int n) {
        byte[] d = new byte[n];
        MemorySegment.copy(mem, JAVA_BYTE, DATA, d, 0, n);
        return d;
    }

    /** The sender's port (sockaddr_in and sockaddr_in6 keep it at the same place). */
    int port() { return mem.get(BE_SHORT, NAME + 2) & 0xFFFF; }

    /** The sender's address as inet_drv reports it: a 4-tuple for AF_INET, an 8-tuple for AF_INET6 (v4-mapped too). */
    Term ip() {
        short family = mem.get(JAVA_SHORT, NAME);
        if (family == org.jbeam.bindings.libc.Sockets.AF_INET) {
            long v4 = mem.get(JAVA_INT, NAME + 4) & 0xFFFFFFFFL;
            if (v4 != lastV4) {
                lastV4 = v4;
                lastIp = ETuple.of(ESmall.of(v4 & 0xFF), ESmall.of((v4 >>> 8) & 0xFF), ESmall.of((v4 >>> 16) & 0xFF),
                        ESmall.of(v4 >>> 24));
            }
            return lastIp;
        }
        Term[] t = new Term[8];
        for (int i = 0; i < 8; i++) t[i] = ESmall.of(mem.get(BE_SHORT, NAME + 8 + 2 * i) & 0xFFFF);
        return ETuple.of(t);
    }

    /** Stops receiving; {@code close} runs (then the memory is freed) once no receive is in flight. */
    void release(Runnable close) {
        MemorySegment m = mem;
        key.release(() -> {
            try {
                close.run();
            } finally {
                if (m != null) Libc.free(m);
            }
        });
    }

    /**
     * Waits (bounded, 200 ms) until the release action has run, so that the socket is really closed when
     * gen_udp:close returns (its port can be bound again; a datagram sent to it is refused). Not on the ring thread.
     */
    void awaitReleased(PollRing ring) {
        if (ring.onRingThread()) return;
        long end = System.nanoTime() + 200_000_000L;
        while (!key.isReleased() && System.nanoTime() < end) {
            try {
                Thread.sleep(0, 50_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
