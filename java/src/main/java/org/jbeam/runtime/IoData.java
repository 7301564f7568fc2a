package org.jbeam.runtime;

import org.jbeam.term.*;

/** iodata (nested lists of bytes and binaries) → bytes; badarg on anything else. */
public final class IoData {
    private IoData() {}

    public static byte[] toBytes(Term t) {
        if (t instanceof EBitString b && b.isBinaryAligned()) return b.toByteArray();
        Out out = new Out();
        write(out, t);
        return java.util.Arrays.copyOf(out.buf, out.n);
    }

    /** A growable byte array without ByteArrayOutputStream's per-byte lock. */
    private static final class Out {
        byte[] buf = new byte[64];
        int n;
        void room(int k) { if (n + k > buf.length) buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, n + k)); }
    }

    /**
     * Walks each list along its tail and keeps a stack only for nested lists: port_control and
     * port_command data (prim_inet's option encodings, packets) are mostly flat byte lists, for which
     * the first version pushed two entries per cons cell (ADR 0021). A list's tail (and the term
     * itself) must be a binary or []: [1 | 2] and a bare integer are badarg, as in erts.
     */
    private static void write(Out out, Term t) {
        java.util.ArrayDeque<Term> stack = null;
        while (true) {
            while (t instanceof ECons c) {
                Term h = c.head;
                if (h instanceof ECons) {
                    if (stack == null) stack = new java.util.ArrayDeque<>();
                    stack.push(c.tail);
                    t = h;
                    continue;
                }
                element(out, h);
                t = c.tail;
            }
            if (t instanceof ESmall) throw ErlangException.badarg();
            element(out, t);
            if (stack == null || stack.isEmpty()) return;
            t = stack.pop();
        }
    }

    private static void element(Out out, Term x) {
        if (x instanceof ESmall s) {
            if (s.value < 0 || s.value > 255) throw ErlangException.badarg();
            out.room(1);
            out.buf[out.n++] = (byte) s.value;
        } else if (x instanceof EBitString b) {
            if (!b.isBinaryAligned()) throw ErlangException.badarg();
            int k = b.byteSize();
            out.room(k);
            System.arraycopy(b.array(), b.arrayOffset(), out.buf, out.n, k);
            out.n += k;
        } else if (x != ENil.NIL) throw ErlangException.badarg();
    }
}
