package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.libc.Sockets;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Test helpers: backend construction (skipping io_uring with its reason when unavailable), awaiting one op, loopback sockets. */
final class RingHarness {
    private RingHarness() {}

    static CompletionRing ring(String backend, int entries) {
        if (backend.equals("threads")) return new ThreadPoolRing();
        String why = IoUringRing.unavailableReason();
        assumeTrue(why == null, () -> "io_uring unavailable here, io_uring backend skipped: " + why);
        // io_uring_hybrid: the mode the runtime's SharedRing uses (submitter-driven, backstop thread)
        return new IoUringRing(entries, backend.equals("io_uring_hybrid") ? IoUringRing.Mode.HYBRID : IoUringRing.Mode.REAPER);
    }

    /** Stages one operation, submits, waits for its result. */
    static int await(CompletionRing ring, Consumer<CompletionRing.Completion> op) {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        op.accept((ud, res) -> f.complete(res));
        ring.submit();
        try { return f.get(20, TimeUnit.SECONDS); }
        catch (Exception e) { throw new AssertionError("operation did not complete", e); }
    }

    /** A listening TCP socket on 127.0.0.1 (ephemeral port): {fd, port}. */
    static int[] listener() {
        int fd = Libc.socket(Sockets.AF_INET, Sockets.SOCK_STREAM | Sockets.SOCK_CLOEXEC, 0);
        assertTrue(fd >= 0, "socket: " + fd);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment one = a.allocate(4);
            one.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, 1);
            Libc.setsockopt(fd, Sockets.SOL_SOCKET, Sockets.SO_REUSEADDR, one, 4);
            MemorySegment addr = Sockets.sockaddrIn(a, Sockets.INADDR_LOOPBACK, 0);
            assertTrue(Libc.bind(fd, addr, (int) addr.byteSize()) == 0);
            assertTrue(Libc.listen(fd, 128) == 0);
            MemorySegment len = Sockets.socklen(a, (int) addr.byteSize());
            assertTrue(Libc.getsockname(fd, addr, len) == 0);
            return new int[] {fd, Sockets.port(addr)};
        }
    }

    static int tcpSocket() {
        int fd = Libc.socket(Sockets.AF_INET, Sockets.SOCK_STREAM | Sockets.SOCK_CLOEXEC, 0);
        assertTrue(fd >= 0, "socket: " + fd);
        return fd;
    }

    /** Fills {@code seg} with a pattern depending on {@code seed} and the byte position. */
    static void pattern(MemorySegment seg, long seed) {
        for (long i = 0; i < seg.byteSize(); i++) seg.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (seed * 31 + i * 7 + (i >>> 9)));
    }
}
