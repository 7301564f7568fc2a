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
                    n += copyBinary(b, out, pos);
                } else if (h instanceof ECons) {
                    stack.push(c.tail);
                    cur = h;
                    continue;
                } else if (h != ENil.NIL) throw ErlangException.badarg();
                cur = c.tail;
            } else {
                if (cur instanceof EBitString b) n += copyBinary(b, out, pos);
                else if (cur != ENil.NIL) throw ErlangException.badarg();
                if (stack.isEmpty()) return n;
                cur = stack.pop();
            }
        }
    }

    /** One binary of an iolist: badarg unless byte-sized; copied to {@code out} when given. Returns its size. */
    private static int copyBinary(EBitString b, byte[] out, int[] pos) {
        if (!b.isBinary()) throw ErlangException.badarg();
        if (out != null) { System.arraycopy(b.array(), b.arrayOffset(), out, pos[0], b.byteSize()); pos[0] += b.byteSize(); }
        return b.byteSize();
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
}
