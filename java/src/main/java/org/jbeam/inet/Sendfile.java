package org.jbeam.inet;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import org.jbeam.bindings.libc.Libc;
import org.jbeam.io.PosixErrors;
import org.jbeam.term.*;

/**
 * One file:sendfile/5 on a tcp_inet port (inet_drv's TCP_REQ_SENDFILE): the file's bytes from
 * {@code offset}, at most {@code remaining} of them, go out through the socket's own output queue
 * one chunk at a time, read with pread from the descriptor prim_file:get_handle/1 handed over. A
 * chunk is read only when the queue has drained, so a large file never sits in memory, and the
 * poll thread's writability wake-ups drive it like any queued send. The data is raw: packet
 * framing does not apply, as in erts. When it ends the caller gets
 * {@code {sendfile, S, {ok, Low, High}}} or {@code {sendfile, S, {error, Reason}}}.
 */
final class Sendfile {
    static final int CHUNK = 64 * 1024;
    private static final EAtom SENDFILE = EAtom.of("sendfile"), ERROR = EAtom.of("error");

    final EPid caller;
    private final int fd;
    private long offset, remaining, sent;
    /** pread's error (erl_errno_id's atom), if one ended it. */
    private EAtom error;

    Sendfile(EPid caller, int fd, long offset, long length) {
        this.caller = caller; this.fd = fd; this.offset = offset; this.remaining = length;
    }

    /** The request's arguments: the handle (a native int), offset and length (int64, big-endian); null if malformed. */
    static Sendfile parse(EPid caller, byte[] d) {
        if (d.length != 4 + 8 + 8) return null;
        int fd = (d[0] & 0xFF) | (d[1] & 0xFF) << 8 | (d[2] & 0xFF) << 16 | (d[3] & 0xFF) << 24;
        return new Sendfile(caller, fd, be64(d, 4), be64(d, 12));
    }

    private static long be64(byte[] b, int at) {
        return ((long) InetCodec.i32(b, at) << 32) | (InetCodec.i32(b, at + 4) & 0xFFFFFFFFL);
    }

    /** The next chunk to queue, or null when the sendfile has ended ({@link #outcome} says how). */
    ByteBuffer next() {
        int want = (int) Math.min(CHUNK, remaining);
        if (want <= 0) return null;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(want);
            long n = Libc.pread(fd, buf, want, offset);
            if (n < 0) { error = PosixErrors.atom((int) n); return null; }
            if (n == 0) return null;       // end of file
            byte[] out = buf.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            offset += n;
            remaining -= n;
            sent += n;
            return ByteBuffer.wrap(out);
        }
    }

    /** The message that ends it: {sendfile, S, {ok, Low, High}} or, after a failed read, {sendfile, S, {error, Posix}}. */
    Term outcome(EPort port) {
        return error != null ? failed(port, error)
                : ETuple.of(SENDFILE, port, ETuple.of(EAtom.OK, ESmall.of(sent & 0xFFFFFFFFL), ESmall.of(sent >>> 32)));
    }

    static Term failed(EPort port, Term reason) {
        return ETuple.of(SENDFILE, port, ETuple.of(ERROR, reason));
    }
}
