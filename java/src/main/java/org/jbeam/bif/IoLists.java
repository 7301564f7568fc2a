package org.jbeam.bif;

import java.util.ArrayDeque;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Shared conversions used by several BIF modules: iolist/iodata flattening to bytes
 * ({@code iolist_to_binary}, {@code iolist_size}), bitstring lists ({@code list_to_bitstring}),
 * and charlist ↔ Java String. Traversals are iterative, so deep or long lists cannot overflow
 * the Java stack.
 */
public final class IoLists {
    private IoLists() {}

    /**
     * Flattens an iolist (bytes 0..255, binaries, nested lists; a binary or [] as any tail) to
     * bytes. With {@code binaryOk}, a bare binary is also accepted (iodata). Throws badarg.
     */
    public static byte[] toBytes(Term t, boolean binaryOk) {
        if (t instanceof EBitString b) {
            if (!binaryOk || !b.isBinary()) throw ErlangException.badarg();
            return b.toByteArray();
        }
        if (!(t instanceof EList)) throw ErlangException.badarg();
        long n = size(t);
        if (n > Integer.MAX_VALUE - 16) throw ErlangException.systemLimit();
        byte[] out = new byte[(int) n];
        int[] pos = {0};
        walk(t, out, pos);
        return out;
    }

    /** {@code iolist_size/1}: total byte count of an iolist or binary; badarg otherwise. */
    public static long size(Term t) {
        if (t instanceof EBitString b) {
            if (!b.isBinary()) throw ErlangException.badarg();
            return b.byteSize();
        }
        if (!(t instanceof EList)) throw ErlangException.badarg();
        return walk(t, null, null);
    }

    /** Walks an iolist; copies into {@code out} when non-null. Returns the byte count. */
    private static long walk(Term t, byte[] out, int[] pos) {
        ArrayDeque<Term> stack = new ArrayDeque<>();
        long n = 0;
        Term cur = t;
        while (true) {
            if (cur instanceof ECons c) {
                Term h = c.head;
                if (h instanceof ESmall s) {
                    if (s.value < 0 || s.value > 255) throw ErlangException.badarg();
                    if (out != null) out[pos[0]++] = (byte) s.value;
                    n++;
                } else if (h instanceof EBitString b) {
                    if (!b.isBinary()) throw ErlangException.badarg();
                    if (out != null) { System.arraycopy(b.array(), b.arrayOffset(), out, pos[0], b.byteSize()); pos[0] += b.byteSize(); }
                    n += b.byteSize();
                } else if (h instanceof ECons) {
                    stack.push(c.tail);
                    cur = h;
                    continue;
                } else if (h != ENil.NIL) throw ErlangException.badarg();
                cur = c.tail;
            } else {
                if (cur instanceof EBitString b) {
                    if (!b.isBinary()) throw ErlangException.badarg();
                    if (out != null) { System.arraycopy(b.array(), b.arrayOffset(), out, pos[0], b.byteSize()); pos[0] += b.byteSize(); }
                    n += b.byteSize();
                } else if (cur != ENil.NIL) throw ErlangException.badarg();
                if (stack.isEmpty()) return n;
                cur = stack.pop();
            }
        }
    }

    /** {@code list_to_bitstring/1}: like an iolist but bitstrings of any size are allowed. */
    public static EBitString bitstringListToBits(Term t) {
        if (!(t instanceof EList)) throw ErlangException.badarg();
        BitWriter w = new BitWriter();
        ArrayDeque<Term> stack = new ArrayDeque<>();
        Term cur = t;
        while (true) {
            if (cur instanceof ECons c) {
                Term h = c.head;
                if (h instanceof ESmall s) {
                    if (s.value < 0 || s.value > 255) throw ErlangException.badarg();
                    w.putByte((int) s.value);
                } else if (h instanceof EBitString b) {
                    w.putBits(b);
                } else if (h instanceof ECons) {
                    stack.push(c.tail);
                    cur = h;
                    continue;
                } else if (h != ENil.NIL) throw ErlangException.badarg();
                cur = c.tail;
            } else {
                if (cur instanceof EBitString b) w.putBits(b);
                else if (cur != ENil.NIL) throw ErlangException.badarg();
                if (stack.isEmpty()) return w.toBitString();
                cur = stack.pop();
            }
        }
    }

    /** A list of the bytes {@code [off, off+len)} as small integers, ending in {@code tail}. */
    public static Term bytesToList(byte[] a, int off, int len, Term tail) {
        Term l = tail;
        for (int i = off + len - 1; i >= off; i--) l = new ECons(ESmall.of(a[i] & 0xFF), l);
        return l;
    }

    /** The bytes of a binary as a list of integers. */
    public static Term binaryToList(EBitString b) {
        return bytesToList(b.array(), b.arrayOffset(), b.byteSize(), ENil.NIL);
    }

    /** A list of the string's code points. */
    public static Term stringToCharlist(String s) {
        int[] cps = s.codePoints().toArray();
        Term l = ENil.NIL;
        for (int i = cps.length - 1; i >= 0; i--) l = new ECons(ESmall.of(cps[i]), l);
        return l;
    }

    /**
     * A flat proper list of Unicode code points (0..0x10FFFF, no surrogates) as a String, or null
     * when {@code t} is not such a list.
     */
    public static String charlistToString(Term t) {
        StringBuilder sb = new StringBuilder();
        while (t instanceof ECons c) {
            if (!(c.head instanceof ESmall s) || !validCodePoint(s.value)) return null;
            sb.appendCodePoint((int) s.value);
            t = c.tail;
        }
        return t == ENil.NIL ? sb.toString() : null;
    }

    public static boolean validCodePoint(long v) {
        return v >= 0 && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF);
    }

    /** Builds a bitstring from whole bytes and bitstring pieces. */
    public static final class BitWriter {
        private byte[] buf = new byte[64];
        private long bits;

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
        private void putBitsRaw(int v, int n) {
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
            if (need > Integer.MAX_VALUE - 16) throw ErlangException.systemLimit();
            if (need > buf.length) buf = java.util.Arrays.copyOf(buf, (int) Math.max(need, Math.min((long) buf.length * 2, Integer.MAX_VALUE - 16)));
        }

        public EBitString toBitString() {
            int n = (int) ((bits + 7) >>> 3);
            return new EBitString(java.util.Arrays.copyOf(buf, n), 0, bits);
        }
    }
}
