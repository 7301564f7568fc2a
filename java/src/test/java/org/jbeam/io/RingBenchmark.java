package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.bindings.libc.Fcntl;
import org.jbeam.bindings.libc.Libc;

/**
 * Benchmark (not part of the suite): sequential write then read of a file in fixed chunks with
 * {@code depth} operations in flight, on each backend, printing MB/s; then single-operation
 * round-trip latency (NOP) and batched NOP throughput, for the reaper-thread and caller-driven
 * io_uring modes and the thread pool.
 * Run: {@code java --enable-native-access=ALL-UNNAMED -cp target/classes:target/test-classes
 * org.jbeam.io.RingBenchmark [MiB=1024] [chunkKiB=64] [depth=32] [dir=/tmp]}.
 * The page cache is dropped for the file (fsync + POSIX_FADV_DONTNEED) between write and read.
 */
public final class RingBenchmark {
    public static void main(String[] args) throws Exception {
        long mib = args.length > 0 ? Long.parseLong(args[0]) : 1024;
        int chunk = (args.length > 1 ? Integer.parseInt(args[1]) : 64) * 1024;
        int depth = args.length > 2 ? Integer.parseInt(args[2]) : 32;
        Path dir = Path.of(args.length > 3 ? args[3] : System.getProperty("java.io.tmpdir"));
        String why = IoUringRing.unavailableReason();
        System.out.printf("file %d MiB, chunk %d KiB, depth %d, io_uring %s%n", mib, chunk / 1024, depth,
                why == null ? "available" : "unavailable: " + why);
        String[] modes = why == null ? new String[] {"io_uring", "io_uring-caller", "threads"} : new String[] {"threads"};
        for (String mode : modes) {
            Path file = Files.createTempFile(dir, "jbeam-ring-bench", ".bin");
            try (CompletionRing ring = make(mode)) {
                int fd = Libc.openat(Fcntl.AT_FDCWD, Arena.ofAuto().allocateFrom(file.toString()),
                        Fcntl.O_RDWR | Fcntl.O_TRUNC | Fcntl.O_CLOEXEC, 0);
                long size = mib << 20;
                long t0 = System.nanoTime();
                sequential(ring, fd, true, size, chunk, depth);
                Libc.fsync(fd);
                long t1 = System.nanoTime();
                Libc.posixFadvise(fd, 0, 0, Libc.POSIX_FADV_DONTNEED);
                long t2 = System.nanoTime();
                sequential(ring, fd, false, size, chunk, depth);
                long t3 = System.nanoTime();
                Libc.close(fd);
                System.out.printf("%-16s write %8.1f MB/s   read %8.1f MB/s%n", mode,
                        size / 1e6 / ((t1 - t0) / 1e9), size / 1e6 / ((t3 - t2) / 1e9));
            } finally {
                Files.deleteIfExists(file);
            }
        }
        for (String mode : modes) {
            try (CompletionRing ring = make(mode)) {
                int n = 20_000;
                nops(ring, 2000, 1);   // warm-up
                long t0 = System.nanoTime();
                nops(ring, n, 1);
                long t1 = System.nanoTime();
                nops(ring, n * 10, 64);
                long t2 = System.nanoTime();
                System.out.printf("%-16s nop round trip %6.1f us   batched(64) %6.2f Mops/s%n", mode,
                        (t1 - t0) / 1e3 / n, n * 10 / ((t2 - t1) / 1e3));
            }
        }
    }

    private static CompletionRing make(String mode) {
        return switch (mode) {
            case "io_uring" -> new IoUringRing(256);
            case "io_uring-caller" -> new IoUringRing(256, false);
            default -> new ThreadPoolRing();
        };
    }

    /** Waits for {@code latch}, driving the ring from this thread in caller-driven mode. */
    private static void await(CompletionRing ring, CountDownLatch latch) throws InterruptedException {
        if (ring instanceof IoUringRing u && u.callerDriven()) {
            while (latch.getCount() > 0) u.poll(-1);
        } else latch.await();
    }

    private static void sequential(CompletionRing ring, int fd, boolean write, long size, int chunk, int depth) throws Exception {
        long chunks = size / chunk;
        AtomicLong next = new AtomicLong();
        AtomicInteger errors = new AtomicInteger();
        CountDownLatch done = new CountDownLatch((int) chunks);
        MemorySegment[] bufs = new MemorySegment[depth];
        Arena arena = Arena.ofShared();
        for (int i = 0; i < depth; i++) { bufs[i] = arena.allocate(chunk, 4096); bufs[i].fill((byte) i); }
        CompletionRing.Completion[] cb = new CompletionRing.Completion[1];
        cb[0] = (slot, res) -> {
            if (res != chunk) errors.incrementAndGet();
            done.countDown();
            long c = next.getAndIncrement();
            if (c < chunks) {
                if (write) ring.pwrite(slot, fd, bufs[(int) slot], c * chunk, cb[0]);
                else ring.pread(slot, fd, bufs[(int) slot], c * chunk, cb[0]);
                ring.submit();
            }
        };
        for (int i = 0; i < depth; i++) {
            long c = next.getAndIncrement();
            if (c >= chunks) break;
            if (write) ring.pwrite(i, fd, bufs[i], c * chunk, cb[0]); else ring.pread(i, fd, bufs[i], c * chunk, cb[0]);
        }
        ring.submit();
        await(ring, done);
        if (errors.get() > 0) throw new IllegalStateException(errors.get() + " short or failed transfers");
        arena.close();
    }

    private static void nops(CompletionRing ring, int n, int batch) throws Exception {
        for (int done = 0; done < n; done += batch) {
            CountDownLatch l = new CountDownLatch(batch);
            for (int i = 0; i < batch; i++) ring.nop(i, (ud, res) -> l.countDown());
            ring.submit();
            await(ring, l);
        }
    }
}
