package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Fcntl;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.libc.Sockets;
import org.jbeam.term.EAtom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.jbeam.io.RingHarness.*;
import static org.junit.jupiter.api.Assertions.*;

/** Both CompletionRing backends against the real kernel: real files, real loopback sockets. */
class CompletionRingTest {
    private static final int CHUNK = 64 * 1024;
    private static final int RW = Fcntl.O_RDWR | Fcntl.O_CREAT | Fcntl.O_TRUNC | Fcntl.O_CLOEXEC;

    @TempDir Path dir;

    @ParameterizedTest @ValueSource(strings = {"io_uring", "io_uring_hybrid", "threads"})
    void writeThenReadSeveralMegabytes(String backend) throws Exception {
        try (CompletionRing ring = ring(backend, 32); Arena arena = Arena.ofShared()) {
            Path file = dir.resolve("big.bin");
            int fd = await(ring, c -> ring.openat(1, Fcntl.AT_FDCWD, file.toString(), RW, 0644, c));
            assertTrue(fd >= 0, "open: " + fd);
            int chunks = 64;   // 4 MiB
            // pwrite every chunk at its offset, all in flight at once, one submit
            CountDownLatch written = new CountDownLatch(chunks);
            ConcurrentHashMap<Long, Integer> results = new ConcurrentHashMap<>();
            for (int i = 0; i < chunks; i++) {
                MemorySegment buf = arena.allocate(CHUNK);
                pattern(buf, i);
                ring.pwrite(i, fd, buf, (long) i * CHUNK, (ud, res) -> { results.put(ud, res); written.countDown(); });
            }
            ring.submit();
            assertTrue(written.await(30, TimeUnit.SECONDS));
            for (long i = 0; i < chunks; i++) assertEquals(CHUNK, results.get(i), "pwrite " + i);
            assertEquals(0, await(ring, c -> ring.fsync(2, fd, false, c)));
            assertEquals(0, await(ring, c -> ring.fsync(3, fd, true, c)));
            assertEquals((long) chunks * CHUNK, Files.size(file));

            // sequential read() at the file position (fd offset is still 0: pwrite does not move it)
            MemorySegment in = arena.allocate(CHUNK), expect = arena.allocate(CHUNK);
            for (int i = 0; i < chunks; i++) {
                assertEquals(CHUNK, await(ring, c -> ring.read(4, fd, in, c)), "read " + i);
                pattern(expect, i);
                assertEquals(-1, in.mismatch(expect), "chunk " + i);
            }
            assertEquals(0, await(ring, c -> ring.read(5, fd, in, c)), "EOF");

            // pread at odd offsets, all concurrently
            int n = 200;
            MemorySegment[] bufs = new MemorySegment[n];
            CountDownLatch read = new CountDownLatch(n);
            results.clear();
            for (int i = 0; i < n; i++) {
                bufs[i] = arena.allocate(1000);
                ring.pread(i, fd, bufs[i], (long) i * 20_011, (ud, res) -> { results.put(ud, res); read.countDown(); });
            }
            ring.submit();
            assertTrue(read.await(30, TimeUnit.SECONDS));
            byte[] all = Files.readAllBytes(file);
            for (int i = 0; i < n; i++) {
                assertEquals(1000, results.get((long) i));
                assertArrayEquals(java.util.Arrays.copyOfRange(all, i * 20_011, i * 20_011 + 1000),
                        bufs[i].toArray(ValueLayout.JAVA_BYTE), "pread " + i);
            }

            // write() at the file position appends after the reads moved it to EOF
            MemorySegment tail = arena.allocateFrom("tail!");
            assertEquals((int) tail.byteSize(), await(ring, c -> ring.write(6, fd, tail, c)));
            assertEquals(0, await(ring, c -> ring.closeFd(7, fd, c)));
            assertEquals((long) chunks * CHUNK + tail.byteSize(), Files.size(file));
            assertEquals(0, ring.outstanding());
        }
    }

    @ParameterizedTest @ValueSource(strings = {"io_uring", "io_uring_hybrid", "threads"})
    void errorsAreNegativeErrnosMappedToPosixAtoms(String backend) throws Exception {
        try (CompletionRing ring = ring(backend, 8); Arena arena = Arena.ofConfined()) {
            int r = await(ring, c -> ring.openat(1, Fcntl.AT_FDCWD, dir.resolve("missing").toString(), Fcntl.O_RDONLY, 0, c));
            assertEquals(-Errno.ENOENT, r);
            assertEquals(EAtom.of("enoent"), PosixErrors.atom(r));

            Path f = dir.resolve("f");
            Files.writeString(f, "x");
            int fd = await(ring, c -> ring.openat(2, Fcntl.AT_FDCWD, f.toString(), Fcntl.O_RDONLY, 0, c));
            assertTrue(fd >= 0);
            assertEquals(0, await(ring, c -> ring.closeFd(3, fd, c)));
            // fd numbers are reused at once by other threads of the JVM, so the "closed" fd used
            // for EBADF is one far above anything open
            int closedFd = 987_654;
            MemorySegment buf = arena.allocate(16);
            r = await(ring, c -> ring.read(4, closedFd, buf, c));
            assertEquals(-Errno.EBADF, r);
            assertEquals(EAtom.of("ebadf"), PosixErrors.atom(r));
            assertEquals(EAtom.of("ebadf"), PosixErrors.atom(await(ring, c -> ring.closeFd(5, closedFd, c))));
            assertEquals(EAtom.of("ebadf"), PosixErrors.atom(await(ring, c -> ring.fsync(5, closedFd, false, c))));
            r = await(ring, c -> ring.openat(6, Fcntl.AT_FDCWD, f.toString(), Fcntl.O_CREAT | Fcntl.O_EXCL | Fcntl.O_WRONLY, 0644, c));
            assertEquals(EAtom.of("eexist"), PosixErrors.atom(r));
            r = await(ring, c -> ring.openat(7, Fcntl.AT_FDCWD, dir.toString(), Fcntl.O_WRONLY, 0, c));
            assertEquals(EAtom.of("eisdir"), PosixErrors.atom(r));
            r = await(ring, c -> ring.openat(8, Fcntl.AT_FDCWD, f + "/x", Fcntl.O_RDONLY, 0, c));
            assertEquals(EAtom.of("enotdir"), PosixErrors.atom(r));
            int sock = tcpSocket();   // not connected
            r = await(ring, c -> ring.send(9, sock, buf, Sockets.MSG_NOSIGNAL, c));
            assertTrue(r == -Errno.EPIPE || r == -Errno.ENOTCONN, "send on unconnected socket: " + r);
            r = await(ring, c -> ring.accept(10, sock, 0, c));
            assertEquals(EAtom.of("einval"), PosixErrors.atom(r));
            Libc.close(sock);
        }
    }

    @ParameterizedTest @ValueSource(strings = {"io_uring", "io_uring_hybrid", "threads"})
    void tcpEchoOverLoopback(String backend) throws Exception {
        try (CompletionRing ring = ring(backend, 16); Arena arena = Arena.ofShared()) {
            int[] l = listener();
            int client = tcpSocket();
            MemorySegment addr = Sockets.sockaddrIn(arena, Sockets.INADDR_LOOPBACK, l[1]);
            // accept and connect in flight together
            CountDownLatch both = new CountDownLatch(2);
            int[] res = new int[2];
            ring.accept(1, l[0], Sockets.SOCK_CLOEXEC, (ud, r) -> { res[0] = r; both.countDown(); });
            ring.connect(2, client, addr, (ud, r) -> { res[1] = r; both.countDown(); });
            ring.submit();
            assertTrue(both.await(20, TimeUnit.SECONDS));
            int server = res[0];
            assertTrue(server >= 0, "accept: " + server);
            assertEquals(0, res[1], "connect");

            MemorySegment sbuf = arena.allocate(CHUNK), cbuf = arena.allocate(CHUNK);
            for (int round = 0; round < 30; round++) {
                int size = 1 + round * 2111;
                MemorySegment msg = arena.allocate(size);
                pattern(msg, round);
                assertEquals(size, await(ring, c -> ring.send(10, client, msg, Sockets.MSG_NOSIGNAL, c)));
                long got = 0;
                while (got < size) {   // server: recv what arrived, echo it back
                    long want = Math.min(CHUNK, size - got);
                    int n = await(ring, c -> ring.recv(11, server, sbuf.asSlice(0, want), 0, c));
                    assertTrue(n > 0, "server recv " + n);
                    assertEquals(n, await(ring, c -> ring.send(12, server, sbuf.asSlice(0, n), Sockets.MSG_NOSIGNAL, c)));
                    got += n;
                }
                MemorySegment back = arena.allocate(size);
                long have = 0;
                while (have < size) {
                    long off = have, want = Math.min(CHUNK, size - have);
                    int n = await(ring, c -> ring.recv(13, client, cbuf.asSlice(0, want), 0, c));
                    assertTrue(n > 0, "client recv " + n);
                    MemorySegment.copy(cbuf, 0, back, off, n);
                    have += n;
                }
                assertEquals(-1, back.mismatch(msg), "round " + round);
            }
            // orderly shutdown: the server's recv sees EOF
            Libc.shutdown(client, Sockets.SHUT_WR);
            assertEquals(0, await(ring, c -> ring.recv(14, server, sbuf, 0, c)));
            for (int fd : new int[] {client, server, l[0]}) assertEquals(0, await(ring, c -> ring.closeFd(15, fd, c)));
        }
    }

    @ParameterizedTest @ValueSource(strings = {"io_uring", "io_uring_hybrid", "threads"})
    void aThousandOperationsInFlight(String backend) throws Exception {
        try (CompletionRing ring = ring(backend, 64); Arena arena = Arena.ofShared()) {
            Path file = dir.resolve("k.bin");
            int fd = await(ring, c -> ring.openat(1, Fcntl.AT_FDCWD, file.toString(), RW, 0644, c));
            int n = 1000, size = 4096;
            CountDownLatch done = new CountDownLatch(n);
            ConcurrentHashMap<Long, Integer> results = new ConcurrentHashMap<>();
            for (int i = 0; i < n; i++) {
                MemorySegment buf = arena.allocate(size);
                buf.fill((byte) i);
                ring.pwrite(i, fd, buf, (long) i * size, (ud, res) -> { assertNull(results.put(ud, res)); done.countDown(); });
            }
            // nothing dropped; a backend may start staged operations before submit (the reaper
            // thread's turn can pick some up), so only an upper bound holds here
            assertTrue(ring.outstanding() <= n, "outstanding " + ring.outstanding());
            ring.submit();
            assertTrue(done.await(60, TimeUnit.SECONDS));
            assertEquals(n, results.size());
            results.forEach((ud, res) -> assertEquals(size, res, "op " + ud));
            byte[] all = Files.readAllBytes(file);
            assertEquals((long) n * size, all.length);
            for (int i = 0; i < n; i++) assertEquals((byte) i, all[i * size + 17]);
            assertEquals(0, await(ring, c -> ring.closeFd(2, fd, c)));
        }
    }

    @ParameterizedTest @ValueSource(strings = {"io_uring", "io_uring_hybrid", "threads"})
    void moreThanTheRingSizeQueuesAndNeverDrops(String backend) throws Exception {
        try (CompletionRing ring = ring(backend, 4); Arena arena = Arena.ofShared()) {
            if (ring instanceof IoUringRing u) assertEquals(4, u.sqEntries());
            int threads = 4, per = 500;
            CountDownLatch done = new CountDownLatch(threads * per);
            AtomicInteger bad = new AtomicInteger();
            ConcurrentHashMap<Long, Boolean> seen = new ConcurrentHashMap<>();
            MemorySegment buf = arena.allocate(512);
            Path file = dir.resolve("bp.bin");
            Files.write(file, new byte[8192]);
            int fd = await(ring, c -> ring.openat(1, Fcntl.AT_FDCWD, file.toString(), Fcntl.O_RDONLY, 0, c));
            Thread[] ts = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int base = t * per;
                ts[t] = new Thread(() -> {   // stage from several threads at once, submitting in small batches
                    for (int i = 0; i < per; i++) {
                        long ud = base + i;
                        CompletionRing.Completion c = (u, res) -> {
                            if (seen.put(u, true) != null || res < 0) bad.incrementAndGet();
                            done.countDown();
                        };
                        if (i % 2 == 0) ring.nop(ud, c); else ring.pread(ud, fd, buf, (i % 16) * 512L, c);
                        if (i % 7 == 0) ring.submit();
                    }
                    ring.submit();
                });
                ts[t].start();
            }
            for (Thread t : ts) t.join();
            assertTrue(done.await(60, TimeUnit.SECONDS), "completions: " + (threads * per - done.getCount()));
            assertEquals(0, bad.get());
            assertEquals(threads * per, seen.size());
            assertEquals(0, await(ring, c -> ring.closeFd(2, fd, c)));
            assertEquals(0, ring.outstanding());
        }
    }

    @ParameterizedTest @ValueSource(strings = {"io_uring", "io_uring_hybrid", "threads"})
    void closeCancelsStagedOperations(String backend) throws Exception {
        CompletionRing ring = ring(backend, 8);
        AtomicInteger cancelled = new AtomicInteger(), total = new AtomicInteger();
        for (int i = 0; i < 10; i++) ring.nop(i, (ud, res) -> {
            total.incrementAndGet();
            if (res == -Errno.ECANCELED) cancelled.incrementAndGet(); else assertEquals(0, res);
        });
        ring.close();   // never submitted: each completes, with -ECANCELED unless the backend had already started it
        assertEquals(10, total.get());
        assertEquals(0, ring.outstanding());
        assertThrows(IllegalStateException.class, () -> ring.nop(99, (ud, res) -> {}));
    }

    @ParameterizedTest @ValueSource(strings = {"io_uring"})
    void closeCancelsAnInFlightReceive(String backend) throws Exception {
        CompletionRing ring = ring(backend, 8);
        int[] l = listener();
        int client = tcpSocket();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment addr = Sockets.sockaddrIn(arena, Sockets.INADDR_LOOPBACK, l[1]);
            assertEquals(0, await(ring, c -> ring.connect(1, client, addr, c)));
            CountDownLatch done = new CountDownLatch(1);
            int[] res = new int[1];
            ring.recv(2, client, arena.allocate(100), 0, (ud, r) -> { res[0] = r; done.countDown(); });
            ring.submit();
            Thread.sleep(50);
            assertEquals(1, ring.outstanding());
            ring.close();
            assertTrue(done.await(5, TimeUnit.SECONDS));
            assertEquals(-Errno.ECANCELED, res[0]);
        } finally {
            Libc.close(client);
            Libc.close(l[0]);
        }
    }
}
