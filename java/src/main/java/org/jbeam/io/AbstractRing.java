package org.jbeam.io;

import java.lang.foreign.MemorySegment;

import org.jbeam.io.IoRequest.Op;

/** The operation methods of {@link CompletionRing}, turned into {@link IoRequest}s for a backend's {@link #stage}. */
abstract class AbstractRing implements CompletionRing {

    /** Queues one request (never blocks, never drops); throws IllegalStateException once closed. */
    abstract void stage(IoRequest r);

    private static final MemorySegment NONE = MemorySegment.NULL;

    @Override public void openat(long ud, int dirfd, String path, int flags, int mode, Completion c) {
        stage(new IoRequest(Op.OPENAT, ud, c, dirfd, IoRequest.path(path), 0, flags, mode));
    }
    @Override public void closeFd(long ud, int fd, Completion c) { stage(new IoRequest(Op.CLOSE, ud, c, fd, NONE, 0, 0, 0)); }
    @Override public void read(long ud, int fd, MemorySegment buf, Completion c) {
        stage(new IoRequest(Op.READ, ud, c, fd, IoRequest.buffer(buf), -1, 0, 0));
    }
    @Override public void write(long ud, int fd, MemorySegment buf, Completion c) {
        stage(new IoRequest(Op.WRITE, ud, c, fd, IoRequest.buffer(buf), -1, 0, 0));
    }
    @Override public void pread(long ud, int fd, MemorySegment buf, long offset, Completion c) {
        if (offset < 0) throw new IllegalArgumentException("negative offset");
        stage(new IoRequest(Op.PREAD, ud, c, fd, IoRequest.buffer(buf), offset, 0, 0));
    }
    @Override public void pwrite(long ud, int fd, MemorySegment buf, long offset, Completion c) {
        if (offset < 0) throw new IllegalArgumentException("negative offset");
        stage(new IoRequest(Op.PWRITE, ud, c, fd, IoRequest.buffer(buf), offset, 0, 0));
    }
    @Override public void fsync(long ud, int fd, boolean dataOnly, Completion c) {
        stage(new IoRequest(dataOnly ? Op.FDATASYNC : Op.FSYNC, ud, c, fd, NONE, 0, 0, 0));
    }
    @Override public void accept(long ud, int fd, int flags, Completion c) { stage(new IoRequest(Op.ACCEPT, ud, c, fd, NONE, 0, flags, 0)); }
    @Override public void connect(long ud, int fd, MemorySegment sockaddr, Completion c) {
        stage(new IoRequest(Op.CONNECT, ud, c, fd, IoRequest.buffer(sockaddr), 0, 0, 0));
    }
    @Override public void recv(long ud, int fd, MemorySegment buf, int flags, Completion c) {
        stage(new IoRequest(Op.RECV, ud, c, fd, IoRequest.buffer(buf), 0, flags, 0));
    }
    @Override public void send(long ud, int fd, MemorySegment buf, int flags, Completion c) {
        stage(new IoRequest(Op.SEND, ud, c, fd, IoRequest.buffer(buf), 0, flags, 0));
    }
    @Override public void nop(long ud, Completion c) { stage(new IoRequest(Op.NOP, ud, c, -1, NONE, 0, 0, 0)); }
}
