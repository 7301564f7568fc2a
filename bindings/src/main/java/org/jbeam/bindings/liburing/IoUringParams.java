package org.jbeam.bindings.liburing;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * jextract-style layouts of {@code struct io_uring_params} (120 bytes) with its
 * {@code io_sqring_offsets} / {@code io_cqring_offsets} members, as liburing 2.3's
 * {@code liburing/io_uring.h} declares them, plus the {@code IORING_SETUP_*} and
 * {@code IORING_FEAT_*} constants.
 */
public final class IoUringParams {
    private IoUringParams() {}

    public static final GroupLayout SQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"), JAVA_INT.withName("tail"), JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"), JAVA_INT.withName("flags"), JAVA_INT.withName("dropped"),
            JAVA_INT.withName("array"), JAVA_INT.withName("resv1"), JAVA_LONG.withName("resv2")
    ).withName("io_sqring_offsets");

    public static final GroupLayout CQRING_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"), JAVA_INT.withName("tail"), JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"), JAVA_INT.withName("overflow"), JAVA_INT.withName("cqes"),
            JAVA_INT.withName("flags"), JAVA_INT.withName("resv1"), JAVA_LONG.withName("resv2")
    ).withName("io_cqring_offsets");

    public static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("sq_entries"), JAVA_INT.withName("cq_entries"), JAVA_INT.withName("flags"),
            JAVA_INT.withName("sq_thread_cpu"), JAVA_INT.withName("sq_thread_idle"), JAVA_INT.withName("features"),
            JAVA_INT.withName("wq_fd"), MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv"),
            SQRING_OFFSETS.withName("sq_off"), CQRING_OFFSETS.withName("cq_off")
    ).withName("io_uring_params");

    public static final long SIZE = LAYOUT.byteSize();
    public static final long SQ_ENTRIES = off("sq_entries"), CQ_ENTRIES = off("cq_entries"), FLAGS = off("flags"),
            FEATURES = off("features"), SQ_OFF = off("sq_off"), CQ_OFF = off("cq_off");

    private static long off(String name) { return LAYOUT.byteOffset(groupElement(name)); }

    public static int sqEntries(MemorySegment p) { return p.get(JAVA_INT, SQ_ENTRIES); }
    public static int cqEntries(MemorySegment p) { return p.get(JAVA_INT, CQ_ENTRIES); }
    public static void cqEntries(MemorySegment p, int v) { p.set(JAVA_INT, CQ_ENTRIES, v); }
    public static int flags(MemorySegment p) { return p.get(JAVA_INT, FLAGS); }
    public static void flags(MemorySegment p, int v) { p.set(JAVA_INT, FLAGS, v); }
    public static int features(MemorySegment p) { return p.get(JAVA_INT, FEATURES); }

    /** io_uring_setup(2) flags ({@code params->flags}). */
    public static final int IORING_SETUP_IOPOLL = 1, IORING_SETUP_SQPOLL = 1 << 1, IORING_SETUP_SQ_AFF = 1 << 2,
            IORING_SETUP_CQSIZE = 1 << 3, IORING_SETUP_CLAMP = 1 << 4, IORING_SETUP_ATTACH_WQ = 1 << 5,
            IORING_SETUP_R_DISABLED = 1 << 6, IORING_SETUP_SUBMIT_ALL = 1 << 7, IORING_SETUP_COOP_TASKRUN = 1 << 8,
            IORING_SETUP_TASKRUN_FLAG = 1 << 9, IORING_SETUP_SQE128 = 1 << 10, IORING_SETUP_CQE32 = 1 << 11,
            IORING_SETUP_SINGLE_ISSUER = 1 << 12, IORING_SETUP_DEFER_TASKRUN = 1 << 13;

    /** {@code params->features} bits. */
    public static final int IORING_FEAT_SINGLE_MMAP = 1, IORING_FEAT_NODROP = 1 << 1, IORING_FEAT_SUBMIT_STABLE = 1 << 2,
            IORING_FEAT_RW_CUR_POS = 1 << 3, IORING_FEAT_CUR_PERSONALITY = 1 << 4, IORING_FEAT_FAST_POLL = 1 << 5,
            IORING_FEAT_POLL_32BITS = 1 << 6, IORING_FEAT_SQPOLL_NONFIXED = 1 << 7, IORING_FEAT_EXT_ARG = 1 << 8,
            IORING_FEAT_NATIVE_WORKERS = 1 << 9, IORING_FEAT_RSRC_TAGS = 1 << 10, IORING_FEAT_CQE_SKIP = 1 << 11,
            IORING_FEAT_LINKED_FILE = 1 << 12, IORING_FEAT_MIN_TIMEOUT = 1 << 15;
}
