package org.jbeam.re;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;

import org.jbeam.term.*;

/**
 * Data conversions the {@code re} BIFs need: iolist flattening ({@code erts_iolist_to_buf}),
 * {@code unicode:characters_to_binary(Data, unicode)} and {@code unicode:characters_to_list(Bin,
 * unicode)} as used by {@code re:urun/3} and {@code re:grun/3}. Failures return {@code null}
 * (callers turn that into {@code badarg}, as OTP does).
 */
public final class ReIo {
    private ReIo() {}

    /** Bytes of an iolist/binary, or null when {@code t} is not iodata (or an unaligned bitstring). */
    public static byte[] iolist(Term t) {
        if (t instanceof EBitString b) return b.isBinary() ? b.toByteArray() : null;
        if (!(t instanceof EList)) return null;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        return flatten(t, out, false) ? out.toByteArray() : null;
    }

    /**
     * UTF-8 bytes of unicode chardata (code points, UTF-8 binaries, nested lists), or null when
     * {@code unicode:characters_to_binary/2} would not return a binary.
     */
    public static byte[] chardata(Term t) {
        if (t instanceof EBitString b) {
            if (!b.isBinary()) return null;
            byte[] r = b.toByteArray();
            return validUtf8Prefix(r, 0, r.length) == r.length ? r : null;
        }
        if (!(t instanceof EList)) return null;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        return flatten(t, out, true) ? out.toByteArray() : null;
    }

    /** Depth-first walk of a (possibly deep, possibly binary-tailed) list without recursion. */
    private static boolean flatten(Term t, ByteArrayOutputStream out, boolean unicode) {
        ArrayDeque<Term> stack = new ArrayDeque<>();
        stack.push(t);
        while (!stack.isEmpty()) {
            Term x = stack.pop();
            while (x instanceof ECons c) {
                Term h = c.head;
                if (h instanceof ESmall s) {
                    long v = s.value;
                    if (!unicode) {
                        if (v < 0 || v > 255) return false;
                        out.write((int) v);
                    } else if (!putUtf8(out, v)) return false;
                } else if (h instanceof EBitString b) {
                    if (!binary(b, out, unicode)) return false;
                } else if (h instanceof EList) {
                    stack.push(c.tail);
                    x = h;
                    continue;
                } else return false;
                x = c.tail;
            }
            if (x instanceof EBitString b) { if (!binary(b, out, unicode)) return false; }
            else if (x != ENil.NIL) return false;
        }
        return true;
    }

    private static boolean binary(EBitString b, ByteArrayOutputStream out, boolean unicode) {
        if (!b.isBinary()) return false;
        int n = b.byteSize();
        if (unicode && validUtf8Prefix(b.array(), b.arrayOffset(), n) != n) return false;
        out.write(b.array(), b.arrayOffset(), n);
        return true;
    }

    private static boolean putUtf8(ByteArrayOutputStream out, long cp) {
        if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        int c = (int) cp;
        if (c < 0x80) out.write(c);
        else if (c < 0x800) { out.write(0xC0 | c >> 6); out.write(0x80 | c & 0x3F); }
        else if (c < 0x10000) { out.write(0xE0 | c >> 12); out.write(0x80 | c >> 6 & 0x3F); out.write(0x80 | c & 0x3F); }
        else {
            out.write(0xF0 | c >> 18); out.write(0x80 | c >> 12 & 0x3F);
            out.write(0x80 | c >> 6 & 0x3F); out.write(0x80 | c & 0x3F);
        }
        return true;
    }

    /** Length of one well-formed UTF-8 sequence at {@code i}, 0 if malformed, -1 if truncated by {@code end}. */
    static int utf8Seq(byte[] a, int i, int end) {
        int b0 = a[i] & 0xFF;
        if (b0 < 0x80) return 1;
        int n; int min;
        if (b0 >= 0xC2 && b0 <= 0xDF) { n = 2; min = 0x80; }
        else if (b0 >= 0xE0 && b0 <= 0xEF) { n = 3; min = 0x800; }
        else if (b0 >= 0xF0 && b0 <= 0xF4) { n = 4; min = 0x10000; }
        else return 0;
        int cp = b0 & (0x7F >> n);
        for (int k = 1; k < n; k++) {
            if (i + k >= end) {
                return -1;
            }
            int bk = a[i + k] & 0xFF;
            if ((bk & 0xC0) != 0x80) return 0;
            cp = cp << 6 | bk & 0x3F;
            // reject early the prefixes that can never become valid (overlong, surrogate, > 10FFFF)
            if (k == 1 && n == 3 && (cp < 0x20 || (cp >= 0x360 && cp <= 0x37F))) return 0;
            if (k == 1 && n == 4 && (cp < 0x10 || cp > 0x10F)) return 0;
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        return n;
    }

    /** Number of leading bytes of a[off, off+len) that form complete valid UTF-8 sequences. */
    static int validUtf8Prefix(byte[] a, int off, int len) {
        int i = off, end = off + len;
        while (i < end) {
            int n = utf8Seq(a, i, end);
            if (n <= 0) break;
            i += n;
        }
        return i - off;
    }

    /**
     * {@code unicode:characters_to_list(Bin, unicode)} of a[off, off+len): the code point list, or
     * {@code {error, Decoded, Rest}} / {@code {incomplete, Decoded, Rest}} for bad or truncated UTF-8.
     */
    public static Term utf8ToList(byte[] a, int off, int len) {
        int end = off + len, i = off;
        int[] cps = new int[len];
        int n = 0;
        while (i < end) {
            int k = utf8Seq(a, i, end);
            if (k <= 0) {
                Term decoded = listOf(cps, n);
                EBitString rest = EBitString.of(java.util.Arrays.copyOfRange(a, i, end));
                return ETuple.of(EAtom.of(k < 0 ? "incomplete" : "error"), decoded, rest);
            }
            int b0 = a[i] & 0xFF;
            int cp = k == 1 ? b0 : b0 & (0x7F >> k);
            for (int j = 1; j < k; j++) cp = cp << 6 | a[i + j] & 0x3F;
            cps[n++] = cp;
            i += k;
        }
        return listOf(cps, n);
    }

    /** {@code binary_to_list} of a[off, off+len): one small integer per byte. */
    public static Term bytesToList(byte[] a, int off, int len) {
        Term l = ENil.NIL;
        for (int i = off + len - 1; i >= off; i--) l = new ECons(ESmall.of(a[i] & 0xFF), l);
        return l;
    }

    private static Term listOf(int[] cps, int n) {
        Term l = ENil.NIL;
        for (int i = n - 1; i >= 0; i--) l = new ECons(ESmall.of(cps[i]), l);
        return l;
    }

    /** An Erlang string (list of code points) from a Java string. */
    public static Term string(String s) {
        int[] cps = s.codePoints().toArray();
        return listOf(cps, cps.length);
    }
}
