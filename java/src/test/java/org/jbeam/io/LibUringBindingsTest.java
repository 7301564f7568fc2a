package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.liburing.*;
import org.junit.jupiter.api.Test;

import static org.jbeam.bindings.liburing.LibUring.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The hand-written liburing 2.3 / libc bindings: struct sizes and offsets as gcc lays them out
 * for liburing 2.3 on x86-64 (sizeof / offsetof printed by a C program against /usr/include/liburing.h),
 * a raw NOP round trip through the Java ring helpers and liburing's own submit/wait, and the
 * caller-driven mode of IoUringRing.
 */
class LibUringBindingsTest {

    @Test
    void layoutsMatchTheCHeaders() {
        assertEquals(216, IoUring.SIZE);
        assertEquals(104, IoUring.SQ_LAYOUT.byteSize());
        assertEquals(88, IoUring.CQ_LAYOUT.byteSize());
        assertEquals(64, IoUringSqe.SIZE);
        assertEquals(16, IoUringCqe.SIZE);
        assertEquals(120, IoUringParams.SIZE);
        assertEquals(16, IoUringProbe.SIZE);
        assertEquals(8, IoUringProbe.OP_LAYOUT.byteSize());
        // offsetof(struct io_uring_sqe, off/addr/len/rw_flags/user_data/buf_index/personality/file_index/addr3)
        assertArrayEquals(new long[] {8, 16, 24, 28, 32, 40, 42, 44, 48}, new long[] {IoUringSqe.OFF, IoUringSqe.ADDR,
                IoUringSqe.LEN, IoUringSqe.OP_FLAGS, IoUringSqe.USER_DATA, IoUringSqe.BUF_INDEX, IoUringSqe.PERSONALITY,
                IoUringSqe.FILE_INDEX, IoUringSqe.ADDR3});
        assertEquals(204, IoUring.ENTER_RING_FD);
        assertEquals(208, IoUring.INT_FLAGS);
        assertEquals(68, IoUring.SQ_SQE_TAIL);
        assertEquals(104, IoUring.CQ_KHEAD);
        assertEquals(40, IoUringParams.SQ_OFF);
        assertEquals(80, IoUringParams.CQ_OFF);
    }

    @Test
    void errnoTablesFollowLibcAndErts() {
        assertEquals("No such file or directory", Libc.strerror(Errno.ENOENT));
        assertEquals("ENOENT", Errno.name(2));
        assertEquals("eagain", Errno.erlId(Errno.EWOULDBLOCK));
        assertEquals("edeadlk", Errno.erlId(Errno.EDEADLOCK));
        assertEquals("enotsup", Errno.erlId(Errno.EOPNOTSUPP));
        assertEquals("unknown", Errno.erlId(Errno.ECANCELED));
        assertEquals("econnrefused", Errno.erlId(111));
        assertEquals("unknown", Errno.erlId(4242));
    }

    @Test
    void rawNopRoundTripThroughTheBindings() {
        String why = IoUringRing.unavailableReason();
        assumeTrue(why == null, () -> "io_uring unavailable here: " + why);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ring = a.allocate(IoUring.LAYOUT), params = a.allocate(IoUringParams.LAYOUT);
            assertEquals(0, io_uring_queue_init_params(8, ring, params));
            try {
                assertEquals(8, IoUringParams.sqEntries(params));
                assertEquals(16, IoUringParams.cqEntries(params));
                IoUringRings rings = new IoUringRings(ring);
                assertEquals(8, rings.sqSpaceLeft());
                for (int i = 0; i < 8; i++) {
                    MemorySegment sqe = rings.getSqe();
                    io_uring_prep_nop(sqe);
                    io_uring_sqe_set_data64(sqe, 100 + i);
                }
                assertNull(rings.getSqe(), "SQ full");
                assertEquals(8, io_uring_submit_and_wait(ring, 8));   // liburing's own flush + enter
                assertEquals(8, rings.cqReady());
                long sum = 0;
                for (int i = 0; i < 8; i++) {
                    assertEquals(0, rings.cqeRes(rings.cqHead()));
                    sum += rings.cqeUserData(rings.cqHead());
                    rings.cqeSeen();
                }
                assertEquals(8 * 100 + 28, sum);
                // Java flush + liburing wait
                MemorySegment sqe = rings.getSqe();
                io_uring_prep_nop(sqe);
                io_uring_sqe_set_data64(sqe, 7);
                assertEquals(1, rings.submitAndWait(0));
                MemorySegment cqePtr = a.allocate(ValueLayout.ADDRESS);
                assertEquals(0, __io_uring_get_cqe(ring, cqePtr, 0, 1, MemorySegment.NULL));
                MemorySegment cqe = cqePtr.get(ValueLayout.ADDRESS, 0).reinterpret(IoUringCqe.SIZE);
                assertEquals(7, IoUringCqe.userData(cqe));
                rings.cqeSeen();
                MemorySegment ts = a.allocate(16);
                ts.set(ValueLayout.JAVA_LONG, 8, 1_000_000L);
                assertEquals(-Errno.ETIME, io_uring_wait_cqe_timeout(ring, cqePtr, ts));
                assertEquals(0, io_uring_submit(ring));
                MemorySegment probe = io_uring_get_probe();
                assertNotEquals(MemorySegment.NULL, probe);
                MemorySegment view = IoUringProbe.view(probe);
                assertTrue(IoUringProbe.opcodeSupported(view, IORING_OP_READ));
                assertFalse(IoUringProbe.opcodeSupported(view, 255));
                io_uring_free_probe(probe);
            } finally {
                io_uring_queue_exit(ring);
            }
        }
    }

    @Test
    void callerDrivenMode() throws Exception {
        String why = IoUringRing.unavailableReason();
        assumeTrue(why == null, () -> "io_uring unavailable here: " + why);
        try (IoUringRing ring = new IoUringRing(8, false); Arena arena = Arena.ofShared()) {
            AtomicInteger done = new AtomicInteger();
            MemorySegment buf = arena.allocate(64);
            for (int i = 0; i < 100; i++) {
                if (i % 2 == 0) ring.nop(i, (ud, r) -> done.incrementAndGet());
                else ring.pread(i, -1, buf, 0, (ud, r) -> { assertEquals(-Errno.EBADF, r); done.incrementAndGet(); });
            }
            ring.submit();                 // submits (and reaps what is ready) on this thread
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (done.get() < 100 && System.nanoTime() < deadline) ring.poll(100_000_000L);
            assertEquals(100, done.get());
            assertEquals(0, ring.poll(1_000_000L));   // times out with nothing to deliver
            assertEquals(0, ring.outstanding());
        }
    }
}
