package org.jbeam.loader;

/** Bounds-checked big-endian reader over a byte range; every overrun is a {@link LoadError}. */
final class ByteReader {
    private final byte[] b;
    private final int end;
    private final String where;
    int pos;

    ByteReader(byte[] b, int off, int len, String where) {
        this.b = b; this.pos = off; this.end = off + len; this.where = where;
    }

    boolean atEnd() { return pos >= end; }
    int remaining() { return end - pos; }

    private LoadError overrun(int need) {
        return LoadError.badfile(where + ": truncated at offset " + pos + " (need " + need + " more bytes)");
    }

    int u8() throws LoadError {
        if (pos >= end) throw overrun(1);
        return b[pos++] & 0xFF;
    }

    int u16() throws LoadError {
        if (pos + 2 > end) throw overrun(2);
        int v = ((b[pos] & 0xFF) << 8) | (b[pos + 1] & 0xFF);
        pos += 2;
        return v;
    }

    int i32() throws LoadError {
        if (pos + 4 > end) throw overrun(4);
        int v = ((b[pos] & 0xFF) << 24) | ((b[pos + 1] & 0xFF) << 16) | ((b[pos + 2] & 0xFF) << 8) | (b[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    /** A non-negative count or size, bounded by what could possibly fit in the rest of the chunk. */
    int count(String what, int minBytesEach) throws LoadError {
        int n = i32();
        if (n < 0 || (minBytesEach > 0 && (long) n * minBytesEach > remaining()))
            throw LoadError.badfile(where + ": bad " + what + " count " + n + " at offset " + (pos - 4));
        return n;
    }

    byte[] bytes(int n) throws LoadError {
        if (n < 0 || pos + n > end) throw overrun(n);
        byte[] r = java.util.Arrays.copyOfRange(b, pos, pos + n);
        pos += n;
        return r;
    }
}
