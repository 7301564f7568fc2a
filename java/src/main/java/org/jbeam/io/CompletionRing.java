package org.jbeam.io;

import java.lang.foreign.MemorySegment;

/**
 * jbeam's asynchronous I/O completion ring: file and socket operations on raw file descriptors,
 * each tagged with a caller-chosen {@code userData} and completed later by a call to its
 * {@link Completion} with the system call's result ({@code >= 0}) or {@code -errno} (see
 * {@link PosixErrors} for the OTP atom). The runtime will use the callback to resume the Erlang
 * process waiting on the operation.
 *
 * <p>Operations are <em>staged</em> by the methods below and are guaranteed to start once
 * {@link #submit()} is called (a backend may start them earlier); staging many operations and
 * submitting once lets the io_uring backend pass them to the kernel in one {@code io_uring_enter}.
 * Staging never blocks and never drops: when the kernel ring is full the operation waits in a
 * queue. Buffers are native {@link MemorySegment}s whose whole length is used; the ring keeps a
 * strong reference to every buffer, path and address until the completion has been delivered, so
 * {@code Arena.ofAuto()} memory stays alive. Closing an explicit arena while an operation on its
 * memory is in flight is a caller error. Callbacks run on a ring-owned thread and must be short.
 *
 * <p>Backends: {@link IoUringRing} (liburing through FFM) and {@link ThreadPoolRing} (blocking
 * libc calls on a thread pool); {@link #open()} picks one.
 */
public interface CompletionRing extends AutoCloseable {

    /** Receives the result of one operation: {@code >= 0} or {@code -errno}. */
    @FunctionalInterface
    interface Completion {
        void complete(long userData, int result);
    }

    /** "io_uring" or "threads". */
    String backendName();

    /** {@code openat(dirfd, path, flags, mode)}: completes with the new fd. */
    void openat(long userData, int dirfd, String path, int flags, int mode, Completion c);

    /** {@code close(fd)} (named closeFd to stay apart from {@link #close()}, which shuts the ring down). */
    void closeFd(long userData, int fd, Completion c);

    /** {@code read(fd, buf, buf.byteSize())} at the file position: completes with the byte count. */
    void read(long userData, int fd, MemorySegment buf, Completion c);

    /** {@code write(fd, buf, buf.byteSize())} at the file position. */
    void write(long userData, int fd, MemorySegment buf, Completion c);

    /** {@code pread(fd, buf, buf.byteSize(), offset)}. */
    void pread(long userData, int fd, MemorySegment buf, long offset, Completion c);

    /** {@code pwrite(fd, buf, buf.byteSize(), offset)}. */
    void pwrite(long userData, int fd, MemorySegment buf, long offset, Completion c);

    /** {@code fsync(fd)}, or {@code fdatasync(fd)} when {@code dataOnly}. */
    void fsync(long userData, int fd, boolean dataOnly, Completion c);

    /** {@code accept4(fd, NULL, NULL, flags)}: completes with the connected socket's fd. */
    void accept(long userData, int fd, int flags, Completion c);

    /** {@code connect(fd, sockaddr, sockaddr.byteSize())}; the fd should be a blocking socket. */
    void connect(long userData, int fd, MemorySegment sockaddr, Completion c);

    /** {@code recv(fd, buf, buf.byteSize(), flags)}. */
    void recv(long userData, int fd, MemorySegment buf, int flags, Completion c);

    /** {@code send(fd, buf, buf.byteSize(), flags)}. */
    void send(long userData, int fd, MemorySegment buf, int flags, Completion c);

    /** An operation that does nothing and completes with 0 (round-trip measurements, wake-ups). */
    void nop(long userData, Completion c);

    /** Starts every staged operation. */
    void submit();

    /**
     * Starts every staged operation, then busy-waits up to {@code spinNanos} until {@code stop}
     * is true (typically: the caller's operation completed, or other work became runnable),
     * reaping completions on the calling thread where the backend can. A caller with nothing
     * else to do saves the wake-up of a parked thread per operation; erts' schedulers spin
     * before sleeping for the same reason. Returns {@code stop}'s final value.
     */
    default boolean submitAndSpin(java.util.function.BooleanSupplier stop, long spinNanos) {
        submit();
        return spinWait(stop, spinNanos);
    }

    /** Spin by yielding (default; -Djbeam.io.yield=false spins with onSpinWait): see ADR 0005. */
    boolean YIELD = !"false".equals(System.getProperty("jbeam.io.yield"));

    /** Busy-waits up to {@code spinNanos} for {@code stop}; returns its final value. */
    static boolean spinWait(java.util.function.BooleanSupplier stop, long spinNanos) {
        long end = System.nanoTime() + spinNanos;
        while (!stop.getAsBoolean()) {
            if (System.nanoTime() - end >= 0) return false;
            if (YIELD) Thread.yield(); else Thread.onSpinWait();
        }
        return true;
    }

    /** Operations staged or in flight whose completion has not yet been delivered. */
    int outstanding();

    /**
     * Shuts the ring down: staged operations complete with {@code -ECANCELED}, in-flight ones are
     * cancelled where the backend can and their completions delivered before this returns (bounded
     * by a short grace period).
     */
    @Override
    void close();

    /** {@link #open(int)} with 256 entries. */
    static CompletionRing open() { return open(256); }

    /**
     * The backend chosen by {@code -Djbeam.io=uring|threads|auto} (default auto: io_uring if the
     * ring can be set up and the kernel supports every opcode used, else the thread pool). Logs
     * the choice; {@code uring} fails if io_uring is unavailable.
     */
    static CompletionRing open(int entries) { return Backends.open(entries); }
}
