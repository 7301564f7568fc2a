package org.jbeam.bindings.liburing;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * jextract-style layouts of liburing 2.3's user-space ring descriptors: {@code struct io_uring_sq}
 * (104 bytes), {@code struct io_uring_cq} (88 bytes) and {@code struct io_uring} (216 bytes) from
 * {@code liburing.h}. The pointer members ({@code khead}, {@code ktail}, {@code sqes}...) point into
 * the kernel-shared mmap'ed ring; {@code sqe_head}/{@code sqe_tail} are liburing's private
 * producer indices that {@code io_uring_submit} reads, so Java code that hands out SQEs updates them
 * in this struct (see {@link IoUringRings}).
 */
public final class IoUring {
    private IoUring() {}

    public static final GroupLayout SQ_LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("khead"), ADDRESS.withName("ktail"), ADDRESS.withName("kring_mask"),
            ADDRESS.withName("kring_entries"), ADDRESS.withName("kflags"), ADDRESS.withName("kdropped"),
            ADDRESS.withName("array"), ADDRESS.withName("sqes"),
            JAVA_INT.withName("sqe_head"), JAVA_INT.withName("sqe_tail"),
            JAVA_LONG.withName("ring_sz"), ADDRESS.withName("ring_ptr"),
            JAVA_INT.withName("ring_mask"), JAVA_INT.withName("ring_entries"),
            MemoryLayout.sequenceLayout(2, JAVA_INT).withName("pad")
    ).withName("io_uring_sq");

    public static final GroupLayout CQ_LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("khead"), ADDRESS.withName("ktail"), ADDRESS.withName("kring_mask"),
            ADDRESS.withName("kring_entries"), ADDRESS.withName("kflags"), ADDRESS.withName("koverflow"),
            ADDRESS.withName("cqes"),
            JAVA_LONG.withName("ring_sz"), ADDRESS.withName("ring_ptr"),
            JAVA_INT.withName("ring_mask"), JAVA_INT.withName("ring_entries"),
            MemoryLayout.sequenceLayout(2, JAVA_INT).withName("pad")
    ).withName("io_uring_cq");

    public static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            SQ_LAYOUT.withName("sq"), CQ_LAYOUT.withName("cq"),
            JAVA_INT.withName("flags"), JAVA_INT.withName("ring_fd"),
            JAVA_INT.withName("features"), JAVA_INT.withName("enter_ring_fd"),
            JAVA_BYTE.withName("int_flags"), MemoryLayout.sequenceLayout(3, JAVA_BYTE).withName("pad"),
            JAVA_INT.withName("pad2")
    ).withName("io_uring");

    public static final long SIZE = LAYOUT.byteSize();

    // struct io_uring members
    public static final long SQ = off("sq"), CQ = off("cq"), FLAGS = off("flags"), RING_FD = off("ring_fd"),
            FEATURES = off("features"), ENTER_RING_FD = off("enter_ring_fd"), INT_FLAGS = off("int_flags");

    // struct io_uring_sq members, relative to struct io_uring
    public static final long SQ_KHEAD = SQ + sq("khead"), SQ_KTAIL = SQ + sq("ktail"), SQ_KFLAGS = SQ + sq("kflags"),
            SQ_KDROPPED = SQ + sq("kdropped"), SQ_ARRAY = SQ + sq("array"), SQ_SQES = SQ + sq("sqes"),
            SQ_SQE_HEAD = SQ + sq("sqe_head"), SQ_SQE_TAIL = SQ + sq("sqe_tail"), SQ_RING_SZ = SQ + sq("ring_sz"),
            SQ_RING_PTR = SQ + sq("ring_ptr"), SQ_RING_MASK = SQ + sq("ring_mask"),
            SQ_RING_ENTRIES = SQ + sq("ring_entries");

    // struct io_uring_cq members, relative to struct io_uring
    public static final long CQ_KHEAD = CQ + cq("khead"), CQ_KTAIL = CQ + cq("ktail"), CQ_KFLAGS = CQ + cq("kflags"),
            CQ_KOVERFLOW = CQ + cq("koverflow"), CQ_CQES = CQ + cq("cqes"), CQ_RING_SZ = CQ + cq("ring_sz"),
            CQ_RING_PTR = CQ + cq("ring_ptr"), CQ_RING_MASK = CQ + cq("ring_mask"),
            CQ_RING_ENTRIES = CQ + cq("ring_entries");

    private static long off(String name) { return LAYOUT.byteOffset(groupElement(name)); }
    private static long sq(String name) { return SQ_LAYOUT.byteOffset(groupElement(name)); }
    private static long cq(String name) { return CQ_LAYOUT.byteOffset(groupElement(name)); }

    public static int flags(MemorySegment ring) { return ring.get(JAVA_INT, FLAGS); }
    public static int ringFd(MemorySegment ring) { return ring.get(JAVA_INT, RING_FD); }
    public static int features(MemorySegment ring) { return ring.get(JAVA_INT, FEATURES); }
    public static int enterRingFd(MemorySegment ring) { return ring.get(JAVA_INT, ENTER_RING_FD); }
    public static int intFlags(MemorySegment ring) { return ring.get(JAVA_BYTE, INT_FLAGS) & 0xff; }

    public static int sqeHead(MemorySegment ring) { return ring.get(JAVA_INT, SQ_SQE_HEAD); }
    public static void sqeHead(MemorySegment ring, int v) { ring.set(JAVA_INT, SQ_SQE_HEAD, v); }
    public static int sqeTail(MemorySegment ring) { return ring.get(JAVA_INT, SQ_SQE_TAIL); }
    public static void sqeTail(MemorySegment ring, int v) { ring.set(JAVA_INT, SQ_SQE_TAIL, v); }
    public static int sqRingMask(MemorySegment ring) { return ring.get(JAVA_INT, SQ_RING_MASK); }
    public static int sqRingEntries(MemorySegment ring) { return ring.get(JAVA_INT, SQ_RING_ENTRIES); }
    public static int cqRingMask(MemorySegment ring) { return ring.get(JAVA_INT, CQ_RING_MASK); }
    public static int cqRingEntries(MemorySegment ring) { return ring.get(JAVA_INT, CQ_RING_ENTRIES); }
    /** A pointer member of the struct (e.g. {@link #SQ_KHEAD}), as a zero-length segment. */
    public static MemorySegment pointer(MemorySegment ring, long member) { return ring.get(ADDRESS, member); }
}
