package org.jbeam.bindings.liburing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The kernel-shared rings of an initialised {@code struct io_uring}, mapped once, with liburing
 * 2.3's static-inline ring helpers re-implemented in Java: {@code io_uring_get_sqe},
 * {@code __io_uring_flush_sq} (the SQ tail publication {@code io_uring_submit} performs),
 * {@code io_uring_sq_ready}/{@code space_left}, {@code io_uring_cq_ready}, the CQE walk of
 * {@code io_uring_for_each_cqe} and {@code io_uring_cq_advance}. The head/tail words shared with
 * the kernel are read with acquire and written with release semantics through {@link VarHandle}s,
 * matching liburing's {@code io_uring_smp_load_acquire}/{@code io_uring_smp_store_release}
 * (a release store of the SQ tail is stronger than liburing's {@code WRITE_ONCE} for non-SQPOLL
 * rings, and costs nothing extra on x86-64). Not thread-safe: one thread owns a ring's SQ side
 * and one its CQ side (jbeam uses a single thread for both). Rings set up with SQE128/CQE32
 * are not supported.
 */
public final class IoUringRings {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    public final MemorySegment ring;
    private final MemorySegment sqKhead, sqKtail, sqKflags, cqKhead, cqKtail;
    private final MemorySegment sqes, cqes;
    public final int sqEntries, sqMask, cqEntries, cqMask, ringFd;

    /** Maps the rings of {@code ring}, a {@code struct io_uring} that io_uring_queue_init* filled in. */
    public IoUringRings(MemorySegment ring) {
        this.ring = ring.reinterpret(IoUring.SIZE);
        int flags = IoUring.flags(this.ring);
        if ((flags & (IoUringParams.IORING_SETUP_SQE128 | IoUringParams.IORING_SETUP_CQE32)) != 0)
            throw new IllegalArgumentException("SQE128/CQE32 rings are not supported");
        sqEntries = IoUring.sqRingEntries(this.ring);
        sqMask = IoUring.sqRingMask(this.ring);
        cqEntries = IoUring.cqRingEntries(this.ring);
        cqMask = IoUring.cqRingMask(this.ring);
        ringFd = IoUring.ringFd(this.ring);
        sqKhead = word(IoUring.SQ_KHEAD);
        sqKtail = word(IoUring.SQ_KTAIL);
        sqKflags = word(IoUring.SQ_KFLAGS);
        cqKhead = word(IoUring.CQ_KHEAD);
        cqKtail = word(IoUring.CQ_KTAIL);
        sqes = IoUring.pointer(this.ring, IoUring.SQ_SQES).reinterpret(sqEntries * IoUringSqe.SIZE);
        cqes = IoUring.pointer(this.ring, IoUring.CQ_CQES).reinterpret(cqEntries * IoUringCqe.SIZE);
    }

    private MemorySegment word(long member) { return IoUring.pointer(ring, member).reinterpret(4); }

    /**
     * {@code io_uring_get_sqe}: the next vacant SQE (its fields are stale: a prep helper fills
     * them), or null if the SQ ring is full. Advances liburing's {@code sq.sqe_tail}.
     */
    public MemorySegment getSqe() {
        int tail = IoUring.sqeTail(ring);
        int next = tail + 1;
        int head = (int) INT.getAcquire(sqKhead, 0L);
        if (Integer.compareUnsigned(next - head, sqEntries) <= 0) {
            IoUring.sqeTail(ring, next);
            return sqes.asSlice((long) (tail & sqMask) * IoUringSqe.SIZE, IoUringSqe.SIZE);
        }
        return null;
    }

    /** {@code io_uring_sq_ready}: SQEs handed out but not yet consumed by the kernel. */
    public int sqReady() { return IoUring.sqeTail(ring) - (int) INT.getAcquire(sqKhead, 0L); }

    /** {@code io_uring_sq_space_left}. */
    public int sqSpaceLeft() { return sqEntries - sqReady(); }

    /**
     * {@code __io_uring_flush_sq}: publishes the SQEs handed out since the last flush by storing the
     * SQ tail with release semantics (the kernel must see the SQE contents first); returns the
     * number of SQEs the kernel has yet to consume, i.e. {@code to_submit} for io_uring_enter.
     * liburing 2.3 maps SQ array slot i to SQE i at setup, so the array is not rewritten here.
     */
    public int flushSq() {
        int tail = IoUring.sqeTail(ring);
        if (IoUring.sqeHead(ring) != tail) {
            IoUring.sqeHead(ring, tail);
            INT.setRelease(sqKtail, 0L, tail);
        }
        return tail - (int) INT.getAcquire(sqKhead, 0L);
    }

    /** liburing's {@code cq_ring_needs_flush}: overflowed CQEs or task work need an enter with GETEVENTS. */
    public boolean cqNeedsFlush() {
        return ((int) INT.getAcquire(sqKflags, 0L) & (LibUring.IORING_SQ_CQ_OVERFLOW | LibUring.IORING_SQ_TASKRUN)) != 0;
    }

    /**
     * {@code __io_uring_submit} for a non-SQPOLL ring: flush the SQ, then one io_uring_enter that
     * submits everything pending and waits for {@code waitNr} completions. Returns the number of
     * SQEs submitted or -errno.
     */
    public int submitAndWait(int waitNr) {
        int submitted = flushSq();
        int flags = 0;
        if (waitNr > 0 || cqNeedsFlush()) flags |= LibUring.IORING_ENTER_GETEVENTS;
        if (submitted == 0 && flags == 0) return 0;
        return LibUring.io_uring_enter(ringFd, submitted, waitNr, flags, MemorySegment.NULL);
    }

    /** {@code io_uring_cq_ready}: completions the kernel has posted and we have not consumed. */
    public int cqReady() { return (int) INT.getAcquire(cqKtail, 0L) - (int) INT.getAcquire(cqKhead, 0L); }

    /** The CQ head (our consumer index); CQE {@code head + i} is {@link #cqe}{@code (head + i)}. */
    public int cqHead() { return (int) INT.getAcquire(cqKhead, 0L); }

    /** The CQ tail, loaded with acquire so the CQEs before it are visible ({@code io_uring_for_each_cqe}). */
    public int cqTail() { return (int) INT.getAcquire(cqKtail, 0L); }

    /** The CQE at ring index {@code index} (masked). */
    public MemorySegment cqe(int index) {
        return cqes.asSlice((long) (index & cqMask) * IoUringCqe.SIZE, IoUringCqe.SIZE);
    }
    public long cqeUserData(int index) { return cqes.get(ValueLayout.JAVA_LONG, (long) (index & cqMask) * IoUringCqe.SIZE); }
    public int cqeFlags(int index) { return cqes.get(ValueLayout.JAVA_INT, (long) (index & cqMask) * IoUringCqe.SIZE + IoUringCqe.FLAGS); }
    public int cqeRes(int index) { return cqes.get(ValueLayout.JAVA_INT, (long) (index & cqMask) * IoUringCqe.SIZE + IoUringCqe.RES); }

    /** {@code io_uring_cq_advance}: releases {@code nr} CQEs back to the kernel (release store of the head). */
    public void cqAdvance(int nr) {
        if (nr != 0) INT.setRelease(cqKhead, 0L, (int) INT.get(cqKhead, 0L) + nr);
    }

    /** {@code io_uring_cqe_seen}. */
    public void cqeSeen() { cqAdvance(1); }
}
