package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;

/**
 * One staged or in-flight ring operation, shared by both backends: the operation, its
 * arguments, the caller's userData and callback. It holds strong references to the buffer, path
 * and address segments, which keeps them alive until the completion has been delivered.
 */
final class IoRequest {
    enum Op { NOP, OPENAT, CLOSE, READ, WRITE, PREAD, PWRITE, FSYNC, FDATASYNC, ACCEPT, CONNECT, RECV, SEND }

    final Op op;
    final long userData;
    final CompletionRing.Completion completion;
    final int fd;
    /** Buffer, NUL-terminated path, or sockaddr, depending on the op; NULL when unused. */
    final MemorySegment mem;
    final long offset;
    /** open flags, accept flags or msg flags. */
    final int flags;
    final int mode;

    IoRequest(Op op, long userData, CompletionRing.Completion completion, int fd, MemorySegment mem, long offset,
              int flags, int mode) {
        if (completion == null) throw new NullPointerException("completion");
        this.op = op;
        this.userData = userData;
        this.completion = completion;
        this.fd = fd;
        this.mem = mem;
        this.offset = offset;
        this.flags = flags;
        this.mode = mode;
    }

    /** A buffer argument: native (the kernel reads/writes it directly) and at most 2^31-1 bytes. */
    static MemorySegment buffer(MemorySegment buf) {
        if (!buf.isNative()) throw new IllegalArgumentException("ring buffers must be native (off-heap) segments");
        if (buf.byteSize() > Integer.MAX_VALUE) throw new IllegalArgumentException("buffer larger than 2 GiB");
        return buf;
    }

    static MemorySegment path(String path) { return Arena.ofAuto().allocateFrom(path); }

    /** Delivers the result; a throwing callback must not kill the ring's thread. */
    void complete(int result) {
        try {
            completion.complete(userData, result);
        } catch (Throwable t) {
            Thread th = Thread.currentThread();
            th.getUncaughtExceptionHandler().uncaughtException(th, t);
        }
    }

    /** Runs the operation as a blocking libc call on the current thread: result or -errno. */
    int runBlocking() {
        if (!mem.scope().isAlive()) return -Errno.EFAULT;
        // The kernel sees only the address, whichever thread owns the segment; the blocking call
        // does the same through a global-scope alias (so confined-arena buffers work as on io_uring).
        MemorySegment mem = this.mem.equals(MemorySegment.NULL) ? this.mem
                : MemorySegment.ofAddress(this.mem.address()).reinterpret(this.mem.byteSize());
        long len = mem.byteSize();
        long r = switch (op) {
            case NOP -> 0;
            case OPENAT -> Libc.openat(fd, mem, flags, mode);
            case CLOSE -> Libc.close(fd);
            case READ -> Libc.read(fd, mem, len);
            case WRITE -> Libc.write(fd, mem, len);
            case PREAD -> Libc.pread(fd, mem, len, offset);
            case PWRITE -> Libc.pwrite(fd, mem, len, offset);
            case FSYNC -> Libc.fsync(fd);
            case FDATASYNC -> Libc.fdatasync(fd);
            case ACCEPT -> Libc.accept4(fd, MemorySegment.NULL, MemorySegment.NULL, flags);
            case CONNECT -> Libc.connect(fd, mem, (int) len);
            case RECV -> Libc.recv(fd, mem, len, flags);
            case SEND -> Libc.send(fd, mem, len, flags);
        };
        return (int) r;
    }

    /** Operations that may block indefinitely (they wait on a peer, not on the disk). */
    boolean mayBlockIndefinitely() {
        return op == Op.ACCEPT || op == Op.CONNECT || op == Op.RECV || op == Op.SEND;
    }

    static final int ECANCELED = -Errno.ECANCELED;
}
