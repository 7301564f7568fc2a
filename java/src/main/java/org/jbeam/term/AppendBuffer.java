package org.jbeam.term;

/**
 * Makes {@code <<Acc/binary, More/binary>>} in a loop linear instead of quadratic, as BEAM's
 * writable binaries do. The result of an append owns a buffer with spare capacity; appending to
 * the newest binary of a buffer writes after its end in place and returns a longer view of the
 * same array. Older views never see the new bytes (their size is fixed), so terms stay immutable.
 * Appending to any other binary copies into a fresh buffer.
 *
 * <p>Only the process that made a buffer appends to it in place (as in erts, where a binary that
 * leaves its process stops being writable); any other copies. A process runs on one thread at a
 * time, so the buffer needs no lock (ADR 0045: the lock it had was a tenth of the append's cost).
 */
public final class AppendBuffer {
    private byte[] data;
    /** Absolute bit position just after the newest binary built on this buffer. */
    private long end;
    /** The process appending in place (never null). */
    private final Object owner;

    private AppendBuffer(byte[] data, long end, Object owner) { this.data = data; this.end = end; this.owner = owner; }

    /**
     * {@code <<acc/bits, ...>>} with {@code addBits} more bits: a binary of acc's bits followed by
     * {@code addBits} bits for the caller to write (at bit {@code arrayOffset() * 8 + acc.bitSize()}
     * of {@code array()}) before the result is used. In place when acc is the newest binary of its
     * buffer: the caller then writes after acc's end, where no other view reaches.
     */
    public static EBitString grow(EBitString acc, long addBits, Object owner) {
        AppendBuffer buf = acc.appendBuffer;
        long accEnd = (long) acc.offset * 8 + acc.bitSize;
        // end == accEnd: nothing was appended after acc, so acc still views buf.data.
        if (buf != null && buf.owner == owner && buf.end == accEnd) {
            long newEnd = accEnd + addBits;
            buf.ensure(newEnd);
            buf.end = newEnd;
            return new EBitString(buf.data, acc.offset, acc.bitSize + addBits, buf);
        }
        long total = acc.bitSize + addBits;
        long bytes = (total + 7) >>> 3;
        if (bytes > Integer.MAX_VALUE - 16) throw new org.jbeam.runtime.ErlangException(EAtom.ERROR, EAtom.SYSTEM_LIMIT);
        byte[] d = new byte[(int) Math.min(Integer.MAX_VALUE - 16, Math.max(64, bytes * 2))];
        new BitWriter(d, 0).putBits(acc);
        return new EBitString(d, 0, total, owner == null ? null : new AppendBuffer(d, total, owner));
    }

    private void ensure(long bits) {
        long need = (bits + 7) >>> 3;
        if (need <= data.length) return;
        if (need > Integer.MAX_VALUE - 16) throw new org.jbeam.runtime.ErlangException(EAtom.ERROR, EAtom.SYSTEM_LIMIT);
        data = java.util.Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, (long) data.length * 2)));
    }
}
