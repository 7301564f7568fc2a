package org.jbeam.bindings.liburing;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * jextract-style layouts of {@code struct io_uring_probe} (16-byte header followed by the
 * flexible {@code ops[]} array of 8-byte {@code struct io_uring_probe_op}) from liburing 2.3, and
 * the static-inline {@code io_uring_opcode_supported}.
 */
public final class IoUringProbe {
    private IoUringProbe() {}

    public static final GroupLayout OP_LAYOUT = MemoryLayout.structLayout(
            JAVA_BYTE.withName("op"), JAVA_BYTE.withName("resv"), JAVA_SHORT.withName("flags"), JAVA_INT.withName("resv2")
    ).withName("io_uring_probe_op");

    public static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_BYTE.withName("last_op"), JAVA_BYTE.withName("ops_len"), JAVA_SHORT.withName("resv"),
            MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv2")
            /* struct io_uring_probe_op ops[]; */
    ).withName("io_uring_probe");

    public static final long SIZE = LAYOUT.byteSize();
    public static final long OPS = SIZE;
    private static final long OP_FLAGS = OP_LAYOUT.byteOffset(groupElement("flags"));

    /** {@code io_uring_probe_op.flags}: the opcode is supported. */
    public static final int IO_URING_OP_SUPPORTED = 1;

    public static int lastOp(MemorySegment p) { return p.get(JAVA_BYTE, 0) & 0xff; }
    public static int opsLen(MemorySegment p) { return p.get(JAVA_BYTE, 1) & 0xff; }

    /** A probe pointer returned by liburing, sized to its header and {@code ops_len} entries. */
    public static MemorySegment view(MemorySegment probe) {
        MemorySegment head = probe.reinterpret(SIZE);
        return probe.reinterpret(SIZE + (long) opsLen(head) * OP_LAYOUT.byteSize());
    }

    /** {@code io_uring_opcode_supported(p, op)}; {@code p} must be a {@link #view}. */
    public static boolean opcodeSupported(MemorySegment p, int op) {
        if (op > lastOp(p) || op >= opsLen(p)) return false;
        short flags = p.get(JAVA_SHORT, OPS + op * OP_LAYOUT.byteSize() + OP_FLAGS);
        return (flags & IO_URING_OP_SUPPORTED) != 0;
    }
}
