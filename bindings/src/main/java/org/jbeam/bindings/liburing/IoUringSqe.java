package org.jbeam.bindings.liburing;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * jextract-style layout of {@code struct io_uring_sqe} (64 bytes) as {@code liburing/io_uring.h}
 * of liburing 2.3 declares it. The unions are modelled with the member names liburing's prep
 * helpers use; {@code rw_flags} and its aliases ({@code fsync_flags}, {@code msg_flags},
 * {@code accept_flags}, {@code open_flags}, {@code cancel_flags}, ...) are one 32-bit word.
 */
public final class IoUringSqe {
    private IoUringSqe() {}

    public static final GroupLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_BYTE.withName("opcode"),
            JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("ioprio"),
            JAVA_INT.withName("fd"),
            MemoryLayout.unionLayout(
                    JAVA_LONG.withName("off"),
                    JAVA_LONG.withName("addr2"),
                    MemoryLayout.structLayout(JAVA_INT.withName("cmd_op"), JAVA_INT.withName("__pad1"))
            ).withName("$off"),
            MemoryLayout.unionLayout(JAVA_LONG.withName("addr"), JAVA_LONG.withName("splice_off_in")).withName("$addr"),
            JAVA_INT.withName("len"),
            MemoryLayout.unionLayout(
                    JAVA_INT.withName("rw_flags"), JAVA_INT.withName("fsync_flags"), JAVA_SHORT.withName("poll_events"),
                    JAVA_INT.withName("poll32_events"), JAVA_INT.withName("sync_range_flags"),
                    JAVA_INT.withName("msg_flags"), JAVA_INT.withName("timeout_flags"), JAVA_INT.withName("accept_flags"),
                    JAVA_INT.withName("cancel_flags"), JAVA_INT.withName("open_flags"), JAVA_INT.withName("statx_flags"),
                    JAVA_INT.withName("fadvise_advice"), JAVA_INT.withName("splice_flags"),
                    JAVA_INT.withName("rename_flags"), JAVA_INT.withName("unlink_flags"),
                    JAVA_INT.withName("hardlink_flags"), JAVA_INT.withName("xattr_flags"),
                    JAVA_INT.withName("msg_ring_flags"), JAVA_INT.withName("uring_cmd_flags")
            ).withName("$op_flags"),
            JAVA_LONG.withName("user_data"),
            MemoryLayout.unionLayout(JAVA_SHORT.withName("buf_index"), JAVA_SHORT.withName("buf_group")).withName("$buf"),
            JAVA_SHORT.withName("personality"),
            MemoryLayout.unionLayout(
                    JAVA_INT.withName("splice_fd_in"), JAVA_INT.withName("file_index"),
                    MemoryLayout.structLayout(JAVA_SHORT.withName("addr_len"), JAVA_SHORT.withName("__pad3"))
            ).withName("$file"),
            JAVA_LONG.withName("addr3"),
            JAVA_LONG.withName("__pad2")
    ).withName("io_uring_sqe");

    public static final long SIZE = LAYOUT.byteSize();

    public static final long OPCODE = off("opcode"), FLAGS = off("flags"), IOPRIO = off("ioprio"), FD = off("fd"),
            OFF = LAYOUT.byteOffset(groupElement("$off"), groupElement("off")),
            ADDR = LAYOUT.byteOffset(groupElement("$addr"), groupElement("addr")),
            LEN = off("len"),
            OP_FLAGS = LAYOUT.byteOffset(groupElement("$op_flags"), groupElement("rw_flags")),
            USER_DATA = off("user_data"),
            BUF_INDEX = LAYOUT.byteOffset(groupElement("$buf"), groupElement("buf_index")),
            PERSONALITY = off("personality"),
            FILE_INDEX = LAYOUT.byteOffset(groupElement("$file"), groupElement("file_index")),
            ADDR3 = off("addr3"), PAD2 = off("__pad2");

    private static long off(String name) { return LAYOUT.byteOffset(groupElement(name)); }

    public static void opcode(MemorySegment sqe, int v) { sqe.set(JAVA_BYTE, OPCODE, (byte) v); }
    public static int opcode(MemorySegment sqe) { return sqe.get(JAVA_BYTE, OPCODE) & 0xff; }
    public static void flags(MemorySegment sqe, int v) { sqe.set(JAVA_BYTE, FLAGS, (byte) v); }
    public static void ioprio(MemorySegment sqe, int v) { sqe.set(JAVA_SHORT, IOPRIO, (short) v); }
    public static void fd(MemorySegment sqe, int v) { sqe.set(JAVA_INT, FD, v); }
    public static int fd(MemorySegment sqe) { return sqe.get(JAVA_INT, FD); }
    public static void off(MemorySegment sqe, long v) { sqe.set(JAVA_LONG, OFF, v); }
    public static long off(MemorySegment sqe) { return sqe.get(JAVA_LONG, OFF); }
    public static void addr(MemorySegment sqe, long v) { sqe.set(JAVA_LONG, ADDR, v); }
    public static long addr(MemorySegment sqe) { return sqe.get(JAVA_LONG, ADDR); }
    public static void len(MemorySegment sqe, int v) { sqe.set(JAVA_INT, LEN, v); }
    public static int len(MemorySegment sqe) { return sqe.get(JAVA_INT, LEN); }
    /** The 32-bit op-flags union: rw_flags, fsync_flags, msg_flags, accept_flags, open_flags, cancel_flags... */
    public static void opFlags(MemorySegment sqe, int v) { sqe.set(JAVA_INT, OP_FLAGS, v); }
    public static int opFlags(MemorySegment sqe) { return sqe.get(JAVA_INT, OP_FLAGS); }
    public static void userData(MemorySegment sqe, long v) { sqe.set(JAVA_LONG, USER_DATA, v); }
    public static long userData(MemorySegment sqe) { return sqe.get(JAVA_LONG, USER_DATA); }
    public static void bufIndex(MemorySegment sqe, int v) { sqe.set(JAVA_SHORT, BUF_INDEX, (short) v); }
    public static void personality(MemorySegment sqe, int v) { sqe.set(JAVA_SHORT, PERSONALITY, (short) v); }
    public static void fileIndex(MemorySegment sqe, int v) { sqe.set(JAVA_INT, FILE_INDEX, v); }
    public static void addr3(MemorySegment sqe, long v) { sqe.set(JAVA_LONG, ADDR3, v); }
    public static void pad2(MemorySegment sqe, long v) { sqe.set(JAVA_LONG, PAD2, v); }
}
