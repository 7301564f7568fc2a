package org.jbeam.bif;

/**
 * Strict UTF-8 decoding as OTP's erts_analyze_utf8: no overlong forms, no surrogates, nothing
 * above U+10FFFF. Shared by atom conversion, unicode and binary BIFs.
 */
public final class Utf8 {
    private Utf8() {}

    public static final int OK = 0, ERROR = 1, INCOMPLETE = 2;

    /**
     * Length of the valid UTF-8 sequence starting at {@code i} (1..4), or {@code -1} if it is
     * invalid, or {@code -2} if it is a valid prefix cut off by {@code end}.
     */
    public static int seqLen(byte[] a, int i, int end) {
        int b0 = a[i] & 0xFF;
        if (b0 < 0x80) return 1;
        int need;
        if ((b0 & 0xE0) == 0xC0) need = 2;
        else if ((b0 & 0xF0) == 0xE0) need = 3;
        else if ((b0 & 0xF8) == 0xF0) need = 4;
        else return -1;
        if (end - i < need) return -2;
        for (int k = 1; k < need; k++) if ((a[i + k] & 0xC0) != 0x80) return -1;
        int b1 = a[i + 1] & 0xFF;
        switch (need) {
            case 2: if (b0 < 0xC2) return -1; break;
            case 3:
                if (b0 == 0xE0 && b1 < 0xA0) return -1;
                if ((b0 & 0xF) == 0xD && (b1 & 0x20) != 0) return -1;
                break;
            default:
                if (b0 == 0xF0 && b1 < 0x90) return -1;
                if ((b0 & 7) > 4 || ((b0 & 7) == 4 && (b1 & 0x3F) > 0xF)) return -1;
        }
        return need;
    }

    /** Code point of the (valid) sequence of length {@code n} at {@code i}. */
    public static int decode(byte[] a, int i, int n) {
        int b0 = a[i] & 0xFF;
        switch (n) {
            case 1: return b0;
            case 2: return ((b0 & 0x1F) << 6) | (a[i + 1] & 0x3F);
            case 3: return ((b0 & 0x0F) << 12) | ((a[i + 1] & 0x3F) << 6) | (a[i + 2] & 0x3F);
            default: return ((b0 & 0x07) << 18) | ((a[i + 1] & 0x3F) << 12) | ((a[i + 2] & 0x3F) << 6) | (a[i + 3] & 0x3F);
        }
    }

    /** The string if {@code a[off, off+len)} is entirely valid UTF-8, else null. */
    public static String decodeStrict(byte[] a, int off, int len) {
        StringBuilder sb = new StringBuilder(len);
        int i = off, end = off + len;
        while (i < end) {
            int n = seqLen(a, i, end);
            if (n < 0) return null;
            sb.appendCodePoint(decode(a, i, n));
            i += n;
        }
        return sb.toString();
    }

    /** Appends the UTF-8 encoding of code point {@code c} at {@code pos}; returns the new position. */
    public static int encode(int c, byte[] out, int pos) {
        if (c < 0x80) out[pos++] = (byte) c;
        else if (c < 0x800) { out[pos++] = (byte) (0xC0 | (c >> 6)); out[pos++] = (byte) (0x80 | (c & 0x3F)); }
        else if (c < 0x10000) {
            out[pos++] = (byte) (0xE0 | (c >> 12)); out[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F)); out[pos++] = (byte) (0x80 | (c & 0x3F));
        } else {
            out[pos++] = (byte) (0xF0 | (c >> 18)); out[pos++] = (byte) (0x80 | ((c >> 12) & 0x3F));
            out[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F)); out[pos++] = (byte) (0x80 | (c & 0x3F));
        }
        return pos;
    }

    public static int encodedLength(int c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }
}
