package org.jbeam.term;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A bitstring: {@code bitSize} bits starting at byte {@code offset} of {@code data}. A binary is a
 * bitstring whose size is a multiple of 8. Sub-binaries are views sharing {@code data}; the bytes
 * in the viewed range are never modified (the trailing bits of a final partial byte beyond
 * {@code bitSize} are ignored by every operation).
 */
public final class EBitString extends Term {
    public static final EBitString EMPTY = new EBitString(new byte[0], 0, 0);

    final byte[] data;
    final int offset;
    final long bitSize;
    /** Set when this binary is the growable result of appends (see {@link AppendBuffer}). */
    final AppendBuffer appendBuffer;
    private int hash;

    public EBitString(byte[] data, int offset, long bitSize) {
        this(data, offset, bitSize, null);
    }

    EBitString(byte[] data, int offset, long bitSize, AppendBuffer buffer) {
        this.data = data;
        this.offset = offset;
        this.bitSize = bitSize;
        this.appendBuffer = buffer;
    }

    /** A binary owning (not copying) {@code bytes}. */
    public static EBitString of(byte[] bytes) { return bytes.length == 0 ? EMPTY : new EBitString(bytes, 0, (long) bytes.length * 8); }

    public static EBitString of(byte[] bytes, int off, int len) { return new EBitString(bytes, off, (long) len * 8); }

    public static EBitString ofLatin1(String s) { return of(s.getBytes(StandardCharsets.ISO_8859_1)); }
    public static EBitString ofUtf8(String s) { return of(s.getBytes(StandardCharsets.UTF_8)); }

    public long bitSize() { return bitSize; }
    /** Whole bytes (size div 8). */
    public int byteSize() { return (int) (bitSize >>> 3); }
    /** Bits in the trailing partial byte (0 for binaries). */
    public int extraBits() { return (int) (bitSize & 7); }
    public boolean isBinaryAligned() { return (bitSize & 7) == 0; }

    /** Backing array, start offset: for read-only fast paths. */
    public byte[] array() { return data; }
    public int arrayOffset() { return offset; }

    /** Byte {@code i} (0-based) as unsigned; for a partial last byte the unused low bits are zero. */
    public int byteAt(int i) {
        int b = data[offset + i] & 0xFF;
        if (i == byteSize() && extraBits() != 0) b &= (0xFF << (8 - extraBits())) & 0xFF;
        return b;
    }

    /** Copy of the whole bytes plus, if any, the partial byte (low unused bits zeroed). */
    public byte[] toByteArray() {
        int n = (int) ((bitSize + 7) >>> 3);
        byte[] r = Arrays.copyOfRange(data, offset, offset + n);
        if (extraBits() != 0) r[n - 1] &= (byte) (0xFF << (8 - extraBits()));
        return r;
    }

    /** Sub-binary of whole bytes [from, from+len). */
    public EBitString sub(int from, int len) { return new EBitString(data, offset + from, (long) len * 8); }

    @Override public int typeOrder() { return ORDER_BITSTRING; }
    @Override public boolean isBitString() { return true; }
    @Override public boolean isBinary() { return (bitSize & 7) == 0; }

    @Override public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof EBitString b) || b.bitSize != bitSize) return false;
        int n = byteSize();
        if (!Arrays.equals(data, offset, offset + n, b.data, b.offset, b.offset + n)) return false;
        return extraBits() == 0 || byteAt(n) == b.byteAt(n);
    }

    @Override public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 1;
            int n = byteSize();
            for (int i = 0; i < n; i++) h = 31 * h + data[offset + i];
            if (extraBits() != 0) h = 31 * h + byteAt(n);
            h = h * 31 + (int) bitSize;
            if (h == 0) h = 1;
            hash = h;
        }
        return h;
    }
}
