package org.jbeam.term;

/** Builds a bitstring from whole bytes and bitstring pieces. */
public final class BitWriter {
    private byte[] buf;
    private long bits;

    public BitWriter() { this.buf = new byte[64]; }

    /** Writes into {@code target} from bit {@code startBit} (the caller sized it exactly). */
    public BitWriter(byte[] target, long startBit) { this.buf = target; this.bits = startBit; }

    public void putByte(int v) {
        if ((bits & 7) == 0) {
            ensure(bits + 8);
            buf[(int) (bits >>> 3)] = (byte) v;
            bits += 8;
        } else putBitsRaw(v, 8);
    }

    public void putBits(EBitString b) {
        int n = b.byteSize();
        ensure(bits + b.bitSize());
        if ((bits & 7) == 0) {
            System.arraycopy(b.array(), b.arrayOffset(), buf, (int) (bits >>> 3), n);
            bits += (long) n * 8;
        } else {
            for (int i = 0; i < n; i++) putBitsRaw(b.byteAt(i), 8);
        }
        int extra = b.extraBits();
        if (extra != 0) putBitsRaw(b.byteAt(n) >>> (8 - extra), extra);
    }

    /** Appends the low {@code n} (≤ 8) bits of {@code v}, most significant first. */
    public void putBitsRaw(int v, int n) {
        ensure(bits + n);
        for (int i = n - 1; i >= 0; i--) {
            int bit = (v >>> i) & 1;
            int idx = (int) (bits >>> 3), sh = 7 - (int) (bits & 7);
            if (bit != 0) buf[idx] |= (byte) (1 << sh); else buf[idx] &= (byte) ~(1 << sh);
            bits++;
        }
    }

    private void ensure(long nbits) {
        long need = (nbits + 7) >>> 3;
        if (need > Integer.MAX_VALUE - 16) throw new org.jbeam.runtime.ErlangException(EAtom.ERROR, EAtom.SYSTEM_LIMIT);
        if (need > buf.length) buf = java.util.Arrays.copyOf(buf, (int) Math.max(need, Math.min((long) buf.length * 2, Integer.MAX_VALUE - 16)));
    }

    public EBitString toBitString() {
        int n = (int) ((bits + 7) >>> 3);
        return new EBitString(java.util.Arrays.copyOf(buf, n), 0, bits);
    }

    /** Bits written so far. */
    public long bitLength() { return bits; }

    /** Appends the low {@code n} bits of {@code v} (n ≤ 64), big-endian. */
    public void putLong(long v, int n) {
        if (((bits | n) & 7) == 0 && ((bits + n + 7) >>> 3) <= buf.length) {
            // Whole bytes at a byte boundary with room (nearly every integer segment): store directly.
            int i = (int) (bits >>> 3);
            for (int k = n - 8; k >= 0; k -= 8) buf[i++] = (byte) (v >>> k);
            bits += n;
            return;
        }
        int k = n;
        while (k > 0 && (k & 7) != 0) { int t = k & 7; putBitsRaw((int) (v >>> (k - t)) & ((1 << t) - 1), t); k -= t; }
        while (k > 0) { putByte((int) (v >>> (k - 8)) & 0xFF); k -= 8; }
    }

    /** Appends raw bytes. */
    public void putBytes(byte[] b, int off, int len) {
        if ((bits & 7) == 0) {
            ensure(bits + (long) len * 8);
            System.arraycopy(b, off, buf, (int) (bits >>> 3), len);
            bits += (long) len * 8;
        } else for (int i = 0; i < len; i++) putBitsRaw(b[off + i] & 0xFF, 8);
    }

    /** Appends the first {@code n} bits of {@code b}. */
    public void putBitsOf(EBitString b, long n) {
        int full = (int) (n >>> 3);
        putBytes(b.array(), b.arrayOffset(), full);
        int rem = (int) (n & 7);
        if (rem != 0) putBitsRaw((b.array()[b.arrayOffset() + full] & 0xFF) >>> (8 - rem), rem);
    }
}
