package org.jbeam.bindings.liburing;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * jextract-style layout of {@code struct io_uring_cqe} (16 bytes; liburing 2.3
 * {@code liburing/io_uring.h}). The trailing {@code big_cqe[]} only exists on rings set up with
 * {@code IORING_SETUP_CQE32}, which jbeam does not use.
 */
public final class IoUringCqe {
    private IoUringCqe() {}

    public static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("user_data"),
            JAVA_INT.withName("res"),
            JAVA_INT.withName("flags")
    ).withName("io_uring_cqe");

    public static final long SIZE = LAYOUT.byteSize();
    public static final long USER_DATA = LAYOUT.byteOffset(groupElement("user_data")),
            RES = LAYOUT.byteOffset(groupElement("res")), FLAGS = LAYOUT.byteOffset(groupElement("flags"));

    public static long userData(MemorySegment cqe) { return cqe.get(JAVA_LONG, USER_DATA); }
    public static int res(MemorySegment cqe) { return cqe.get(JAVA_INT, RES); }
    public static int flags(MemorySegment cqe) { return cqe.get(JAVA_INT, FLAGS); }

    /** {@code cqe->flags} bits. */
    public static final int IORING_CQE_F_BUFFER = 1, IORING_CQE_F_MORE = 1 << 1, IORING_CQE_F_SOCK_NONEMPTY = 1 << 2,
            IORING_CQE_F_NOTIF = 1 << 3;
    /** With IORING_CQE_F_BUFFER, the provided buffer's id is {@code flags >>> IORING_CQE_BUFFER_SHIFT}. */
    public static final int IORING_CQE_BUFFER_SHIFT = 16;
}
