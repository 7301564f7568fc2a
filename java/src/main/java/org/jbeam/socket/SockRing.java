package org.jbeam.socket;

import org.jbeam.io.PollRing;

/**
 * Where socket NIF sockets get readiness: the io_uring socket ring of the tcp/udp drivers (ADR 0016)
 * when they use one, else a ring of this package's own (the drivers on the NIO selector,
 * {@code -Djbeam.inet.poll=nio}); null when io_uring is not available at all, in which case
 * {@code socket} reports itself unsupported (nif_open answers {error, enotsup}).
 */
final class SockRing {
    private SockRing() {}

    private static volatile PollRing own;

    static PollRing get() {
        PollRing r = org.jbeam.inet.InetDrivers.socketRing();
        if (r != null) return r;
        PollRing o = own;
        if (o == null) {
            synchronized (SockRing.class) {
                if (own == null && PollRing.unavailableReason() == null) own = new PollRing(64);
                o = own;
            }
        }
        return o;
    }

    static boolean available() {
        try {
            return get() != null;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
