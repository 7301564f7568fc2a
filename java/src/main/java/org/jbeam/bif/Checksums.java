package org.jbeam.bif;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** Continuing crc32/adler32 from a previous value (erlang:crc32/2, adler32/2). */
final class Checksums {
    private Checksums() {}

    private static long value(Term t) {
        if (!(t instanceof ESmall s) || s.value < 0 || s.value > 0xFFFFFFFFL) throw ErlangException.badarg();
        return s.value;
    }

    /** CRC-32 continued from {@code old} over {@code data} (zlib's crc32(old, data)). */
    static long crc32Combine(Term old, byte[] data) {
        long crc = value(old) ^ 0xFFFFFFFFL;
        for (byte b : data) {
            crc ^= b & 0xFF;
            for (int k = 0; k < 8; k++) crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0xEDB88320L : crc >>> 1;
        }
        return crc ^ 0xFFFFFFFFL;
    }

    static long adler32Continue(Term old, byte[] data) {
        long v = value(old);
        long a = v & 0xFFFF, b = (v >>> 16) & 0xFFFF;
        for (byte x : data) {
            a = (a + (x & 0xFF)) % 65521;
            b = (b + a) % 65521;
        }
        return (b << 16) | a;
    }
}
