package org.jbeam.etf;

import org.jbeam.runtime.ErlangException;

import static org.jbeam.etf.Tags.*;

/**
 * The allocation-free first pass of binary_to_term (erts' {@code decoded_size}): walks the
 * encoding counting pending terms, checking every length field against the bytes that remain.
 * After it succeeds, the decoder can trust that no count exceeds the input size, so a forged
 * length can never make it allocate more than a small multiple of the input.
 */
final class DecodedSize {
    private DecodedSize() {}

    /** Checks that {@code b[pos, end)} starts with one complete term (trailing bytes are allowed). */
    static void check(byte[] b, int pos, int end) {
        long pending = 1;
        while (pending > 0) {
            pending--;
            if (pos >= end) throw ErlangException.badarg();
            int tag = b[pos++] & 0xFF;
            long skip;
            switch (tag) {
                case SMALL_INTEGER_EXT -> skip = 1;
                case INTEGER_EXT -> skip = 4;
                case NEW_FLOAT_EXT -> skip = 8;
                case FLOAT_EXT -> skip = FloatText.SIZE;
                case NIL_EXT -> skip = 0;
                case SMALL_BIG_EXT -> skip = 2 + u8(b, pos, end);
                case LARGE_BIG_EXT -> skip = 4 + 1 + u32(b, pos, end);
                case ATOM_EXT, ATOM_UTF8_EXT -> skip = 2 + u16(b, pos, end);
                case SMALL_ATOM_EXT, SMALL_ATOM_UTF8_EXT -> skip = 1 + u8(b, pos, end);
                case STRING_EXT -> skip = 2 + u16(b, pos, end);
                case BINARY_EXT -> skip = 4 + u32(b, pos, end);
                case BIT_BINARY_EXT -> skip = 4 + 1 + u32(b, pos, end);
                case SMALL_TUPLE_EXT -> { pending += u8(b, pos, end); skip = 1; }
                case LARGE_TUPLE_EXT -> { pending += u32(b, pos, end); skip = 4; }
                case LIST_EXT -> { pending += u32(b, pos, end) + 1; skip = 4; }
                case MAP_EXT -> { pending += 2 * u32(b, pos, end); skip = 4; }
                case PID_EXT -> { pos = atom(b, pos, end); skip = 9; }
                case NEW_PID_EXT -> { pos = atom(b, pos, end); skip = 12; }
                case PORT_EXT -> { pos = atom(b, pos, end); skip = 5; }
                case NEW_PORT_EXT -> { pos = atom(b, pos, end); skip = 8; }
                case V4_PORT_EXT -> { pos = atom(b, pos, end); skip = 12; }
                case REFERENCE_EXT -> { pos = atom(b, pos, end); skip = 5; }
                case NEW_REFERENCE_EXT, NEWER_REFERENCE_EXT -> {
                    long n = u16(b, pos, end);
                    pos = atom(b, pos + 2, end);
                    skip = (tag == NEW_REFERENCE_EXT ? 1 : 4) + 4 * n;
                }
                case EXPORT_EXT -> { pending += 3; skip = 0; }
                case NEW_FUN_EXT -> {
                    if (end - pos < 29) throw ErlangException.badarg();
                    pending += 4 + u32(b, pos + 25, end); // module, old index, old uniq, pid, free vars
                    skip = 29;
                }
                default -> throw ErlangException.badarg();
            }
            if (skip > end - pos) throw ErlangException.badarg();
            pos += (int) skip;
            // every pending term needs at least one byte
            if (pending > end - pos) throw ErlangException.badarg();
        }
    }

    private static int atom(byte[] b, int pos, int end) {
        if (pos >= end) throw ErlangException.badarg();
        int tag = b[pos++] & 0xFF;
        long n = switch (tag) {
            case ATOM_EXT, ATOM_UTF8_EXT -> 2 + u16(b, pos, end);
            case SMALL_ATOM_EXT, SMALL_ATOM_UTF8_EXT -> 1 + u8(b, pos, end);
            default -> throw ErlangException.badarg();
        };
        if (n > end - pos) throw ErlangException.badarg();
        return pos + (int) n;
    }

    private static int u8(byte[] b, int pos, int end) {
        if (end - pos < 1) throw ErlangException.badarg();
        return b[pos] & 0xFF;
    }
    private static int u16(byte[] b, int pos, int end) {
        if (end - pos < 2) throw ErlangException.badarg();
        return ((b[pos] & 0xFF) << 8) | (b[pos + 1] & 0xFF);
    }
    private static long u32(byte[] b, int pos, int end) {
        if (end - pos < 4) throw ErlangException.badarg();
        return ((b[pos] & 0xFFL) << 24) | ((b[pos + 1] & 0xFF) << 16) | ((b[pos + 2] & 0xFF) << 8) | (b[pos + 3] & 0xFF);
    }
}
