package org.jbeam.runtime;

import java.io.ByteArrayOutputStream;

import org.jbeam.term.*;

/** iodata (nested lists of bytes and binaries) → bytes; badarg on anything else. */
public final class IoData {
    private IoData() {}

    public static byte[] toBytes(Term t) {
        if (t instanceof EBitString b && b.isBinaryAligned()) return b.toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, t);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, Term t) {
        java.util.ArrayDeque<Term> stack = new java.util.ArrayDeque<>();
        stack.push(t);
        while (!stack.isEmpty()) {
            Term x = stack.pop();
            if (x instanceof ECons c) {
                stack.push(c.tail);
                stack.push(c.head);
            } else if (x instanceof ESmall s) {
                if (s.value < 0 || s.value > 255) throw ErlangException.badarg();
                out.write((int) s.value);
            } else if (x instanceof EBitString b) {
                if (!b.isBinaryAligned()) throw ErlangException.badarg();
                out.write(b.array(), b.arrayOffset(), b.byteSize());
            } else if (x != ENil.NIL) throw ErlangException.badarg();
        }
    }
}
