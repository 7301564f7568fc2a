package org.jbeam.interp;

import java.math.BigInteger;

import org.jbeam.term.*;

/**
 * A binary match context (BEAM's match state): the bitstring being matched and the current bit
 * position. Lives in registers during a match only; never visible as an Erlang value.
 */
final class MatchState extends Term {
    final byte[] data;
    /** Absolute bit positions in {@code data}. */
    final long start, end;
    long pos;

    MatchState(EBitString b) {
        this.data = b.array();
        this.start = (long) b.arrayOffset() * 8;
        this.end = start + b.bitSize();
        this.pos = start;
    }

    long remaining() { return end - pos; }

    @Override public int typeOrder() { return ORDER_BITSTRING; }

    /** Reads {@code n} (≤ 64) bits big-endian at the current position, unsigned, advancing. */
    long readBits(int n) {
        long v = 0;
        long p = pos;
        if (((p | n) & 7) == 0) {
            // Whole bytes at a byte boundary (nearly every match): no per-bit shifting and masking.
            int i = (int) (p >>> 3);
            for (int k = n >>> 3; k > 0; k--) v = (v << 8) | (data[i++] & 0xFF);
            pos = p + n;
            return v;
        }
        int left = n;
        while (left > 0) {
            int byteIdx = (int) (p >>> 3), bitOff = (int) (p & 7);
            int avail = 8 - bitOff;
            int take = Math.min(avail, left);
            int b = data[byteIdx] & 0xFF;
            int bits = (b >>> (avail - take)) & ((1 << take) - 1);
            v = (v << take) | bits;
            left -= take;
            p += take;
        }
        pos = p;
        return v;
    }

    /** Reads {@code n} bits as a big-endian byte array (first byte holds the high bits, padded at the front). */
    byte[] readBitsAsBytes(long n) {
        int nbytes = (int) ((n + 7) >>> 3);
        byte[] out = new byte[nbytes];
        int lead = (int) (nbytes * 8L - n); // leading pad bits in out[0]
        long p = pos;
        for (long i = 0; i < n; i++) {
            long bit = (data[(int) (p >>> 3)] >>> (7 - (p & 7))) & 1;
            long o = lead + i;
            if (bit != 0) out[(int) (o >>> 3)] |= (byte) (1 << (7 - (o & 7)));
            p++;
        }
        pos = p;
        return out;
    }

    /** Integer segment of {@code n} bits with the given flags; advances. */
    Term readInteger(long n, boolean little, boolean signed) {
        if (n == 0) return ESmall.ZERO;
        if (n <= 63 && !little) {
            long v = readBits((int) n);
            if (signed && ((v >>> (n - 1)) & 1) != 0) v -= 1L << n;
            return ESmall.of(v);
        }
        byte[] b = readBitsAsBytes(n);
        if (little) b = littleToBig(b, n);
        BigInteger v = new BigInteger(1, b);
        if (signed && v.testBit((int) n - 1)) v = v.subtract(BigInteger.ONE.shiftLeft((int) n));
        return EInteger.of(v);
    }

    /** Little-endian segments: OTP reverses bytes, the partial byte being the last (most significant). */
    private static byte[] littleToBig(byte[] big, long n) {
        // big holds the n bits as read (big-endian, left-padded). Reinterpret: the bit stream is
        // little-endian bytes where the final partial byte (n % 8 bits) is the most significant.
        int full = (int) (n >>> 3), rem = (int) (n & 7);
        // Re-read as stream bits: stream = big with 'lead' pad removed.
        int lead = (int) (big.length * 8L - n);
        byte[] stream = new byte[(int) ((n + 7) >>> 3)];
        for (long i = 0; i < n; i++) {
            long src = lead + i;
            if (((big[(int) (src >>> 3)] >>> (7 - (src & 7))) & 1) != 0) stream[(int) (i >>> 3)] |= (byte) (1 << (7 - (i & 7)));
        }
        byte[] out = new byte[full + (rem > 0 ? 1 : 0)];
        int o = 0;
        if (rem > 0) out[o++] = (byte) ((stream[full] & 0xFF) >>> (8 - rem));
        for (int i = full - 1; i >= 0; i--) out[o++] = stream[i];
        return out;
    }

    /** A sub-bitstring of {@code n} bits at the current position (a view when byte-aligned); advances. */
    EBitString readBitString(long n) {
        EBitString r;
        if ((pos & 7) == 0) r = new EBitString(data, (int) (pos >>> 3), n);
        else r = new EBitString(readAlignedCopy(n), 0, n);
        if ((pos & 7) == 0) pos += n; // readAlignedCopy advanced already otherwise
        return r;
    }

    private byte[] readAlignedCopy(long n) {
        int nbytes = (int) ((n + 7) >>> 3);
        byte[] out = new byte[nbytes];
        long p = pos;
        for (long i = 0; i < n; i++) {
            if (((data[(int) (p >>> 3)] >>> (7 - (p & 7))) & 1) != 0) out[(int) (i >>> 3)] |= (byte) (1 << (7 - (i & 7)));
            p++;
        }
        pos = p;
        return out;
    }

    /** The rest of the bitstring from the current position. */
    EBitString tail() {
        long n = end - pos;
        long save = pos;
        EBitString r = readBitString(n);
        pos = save;
        return r;
    }
}
