package org.jbeam.bindings.liburing;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * jextract-style layouts of the provided-buffer ring structs of {@code liburing/io_uring.h} 2.3
 * ({@code struct io_uring_buf}, {@code struct io_uring_buf_ring} whose 16-bit {@code tail} overlays
 * {@code bufs[0].resv}, {@code struct io_uring_buf_reg}), and liburing.h's static-inline
 * {@code io_uring_buf_ring_init / _add / _advance / _mask} in Java on the mapped ring. The ring is
 * memory the application allocates (page-aligned, {@code entries} a power of two, 16 bytes each)
 * and registers with {@link LibUring#io_uring_register_buf_ring}; the kernel consumes entries from
 * its private head, the application publishes new ones by a release store of the tail.
 */
public final class IoUringBufRing {
    private IoUringBufRing() {}

    public static final GroupLayout BUF_LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("addr"), JAVA_INT.withName("len"), JAVA_SHORT.withName("bid"), JAVA_SHORT.withName("resv")
    ).withName("io_uring_buf");

    public static final GroupLayout REG_LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("ring_addr"), JAVA_INT.withName("ring_entries"), JAVA_SHORT.withName("bgid"),
            JAVA_SHORT.withName("pad"), MemoryLayout.sequenceLayout(3, JAVA_LONG).withName("resv")
    ).withName("io_uring_buf_reg");

    public static final long BUF_SIZE = BUF_LAYOUT.byteSize();
    static final long ADDR = BUF_LAYOUT.byteOffset(groupElement("addr")), LEN = BUF_LAYOUT.byteOffset(groupElement("len")),
            BID = BUF_LAYOUT.byteOffset(groupElement("bid"));
    /** {@code br->tail}: overlays {@code bufs[0].resv}. */
    static final long TAIL = BUF_LAYOUT.byteOffset(groupElement("resv"));
    static final long REG_RING_ADDR = REG_LAYOUT.byteOffset(groupElement("ring_addr")),
            REG_RING_ENTRIES = REG_LAYOUT.byteOffset(groupElement("ring_entries")),
            REG_BGID = REG_LAYOUT.byteOffset(groupElement("bgid"));

    private static final VarHandle SHORT = JAVA_SHORT.varHandle();

    /** Fills a zeroed {@code io_uring_buf_reg} for {@code ring} of {@code entries} entries, group {@code bgid}. */
    public static void reg(MemorySegment reg, MemorySegment ring, int entries, int bgid) {
        reg.fill((byte) 0);
        reg.set(JAVA_LONG, REG_RING_ADDR, ring.address());
        reg.set(JAVA_INT, REG_RING_ENTRIES, entries);
        reg.set(JAVA_SHORT, REG_BGID, (short) bgid);
    }

    /** {@code io_uring_buf_ring_mask}. */
    public static int mask(int entries) { return entries - 1; }

    /** {@code io_uring_buf_ring_init}. */
    public static void init(MemorySegment br) { br.set(JAVA_SHORT, TAIL, (short) 0); }

    /** The tail as the application last published it. */
    public static int tail(MemorySegment br) { return br.get(JAVA_SHORT, TAIL) & 0xFFFF; }

    /** {@code io_uring_buf_ring_add}: entry {@code tail + offset} describes buffer {@code bid}. */
    public static void add(MemorySegment br, long addr, int len, int bid, int mask, int offset) {
        long e = (long) ((tail(br) + offset) & mask) * BUF_SIZE;
        br.set(JAVA_LONG, e + ADDR, addr);
        br.set(JAVA_INT, e + LEN, len);
        br.set(JAVA_SHORT, e + BID, (short) bid);
    }

    /** {@code io_uring_buf_ring_advance}: publishes {@code count} added entries (release store of the tail). */
    public static void advance(MemorySegment br, int count) {
        SHORT.setRelease(br, TAIL, (short) (tail(br) + count));
    }
}
