package org.jbeam.bindings.liburing;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * jextract-style FFM bindings to liburing ({@code liburing.so.2}), mirroring {@code liburing.h}
 * and {@code liburing/io_uring.h} of liburing 2.3: the exported functions jbeam uses (downcall
 * handles wrapped in static methods, all returning {@code -errno} on failure as liburing does),
 * the opcode / flag constants, and the static-inline {@code io_uring_prep_*} helpers re-implemented
 * in Java on an SQE segment. The ring-index helpers ({@code io_uring_get_sqe}, cq advance...) live
 * in {@link IoUringRings}. If the library cannot be loaded, {@link #AVAILABLE} is false and every
 * function throws {@link UnsatisfiedLinkError}; the caller falls back to another I/O backend.
 */
public final class LibUring {
    private LibUring() {}

    public static final int MAJOR = 2, MINOR = 3;
    public static final String LIBRARY = "liburing.so.2";

    // ---- enum io_uring_op (liburing/io_uring.h, 2.3) ----
    public static final int IORING_OP_NOP = 0, IORING_OP_READV = 1, IORING_OP_WRITEV = 2, IORING_OP_FSYNC = 3,
            IORING_OP_READ_FIXED = 4, IORING_OP_WRITE_FIXED = 5, IORING_OP_POLL_ADD = 6, IORING_OP_POLL_REMOVE = 7,
            IORING_OP_SYNC_FILE_RANGE = 8, IORING_OP_SENDMSG = 9, IORING_OP_RECVMSG = 10, IORING_OP_TIMEOUT = 11,
            IORING_OP_TIMEOUT_REMOVE = 12, IORING_OP_ACCEPT = 13, IORING_OP_ASYNC_CANCEL = 14,
            IORING_OP_LINK_TIMEOUT = 15, IORING_OP_CONNECT = 16, IORING_OP_FALLOCATE = 17, IORING_OP_OPENAT = 18,
            IORING_OP_CLOSE = 19, IORING_OP_FILES_UPDATE = 20, IORING_OP_STATX = 21, IORING_OP_READ = 22,
            IORING_OP_WRITE = 23, IORING_OP_FADVISE = 24, IORING_OP_MADVISE = 25, IORING_OP_SEND = 26,
            IORING_OP_RECV = 27, IORING_OP_OPENAT2 = 28, IORING_OP_EPOLL_CTL = 29, IORING_OP_SPLICE = 30,
            IORING_OP_PROVIDE_BUFFERS = 31, IORING_OP_REMOVE_BUFFERS = 32, IORING_OP_TEE = 33,
            IORING_OP_SHUTDOWN = 34, IORING_OP_RENAMEAT = 35, IORING_OP_UNLINKAT = 36, IORING_OP_MKDIRAT = 37,
            IORING_OP_SYMLINKAT = 38, IORING_OP_LINKAT = 39, IORING_OP_MSG_RING = 40, IORING_OP_FSETXATTR = 41,
            IORING_OP_SETXATTR = 42, IORING_OP_FGETXATTR = 43, IORING_OP_GETXATTR = 44, IORING_OP_SOCKET = 45,
            IORING_OP_URING_CMD = 46, IORING_OP_SEND_ZC = 47, IORING_OP_SENDMSG_ZC = 48, IORING_OP_LAST = 49;

    // ---- sqe->flags ----
    public static final int IOSQE_FIXED_FILE = 1, IOSQE_IO_DRAIN = 1 << 1, IOSQE_IO_LINK = 1 << 2,
            IOSQE_IO_HARDLINK = 1 << 3, IOSQE_ASYNC = 1 << 4, IOSQE_BUFFER_SELECT = 1 << 5,
            IOSQE_CQE_SKIP_SUCCESS = 1 << 6;
    // ---- sqe->fsync_flags, sqe->cancel_flags ----
    public static final int IORING_FSYNC_DATASYNC = 1;
    public static final int IORING_ASYNC_CANCEL_ALL = 1, IORING_ASYNC_CANCEL_FD = 1 << 1,
            IORING_ASYNC_CANCEL_ANY = 1 << 2, IORING_ASYNC_CANCEL_FD_FIXED = 1 << 3;
    // ---- sq_ring->flags, io_uring_enter(2) flags ----
    public static final int IORING_SQ_NEED_WAKEUP = 1, IORING_SQ_CQ_OVERFLOW = 1 << 1, IORING_SQ_TASKRUN = 1 << 2;
    public static final int IORING_ENTER_GETEVENTS = 1, IORING_ENTER_SQ_WAKEUP = 1 << 1, IORING_ENTER_SQ_WAIT = 1 << 2,
            IORING_ENTER_EXT_ARG = 1 << 3, IORING_ENTER_REGISTERED_RING = 1 << 4;
    /** {@code LIBURING_UDATA_TIMEOUT}: user_data liburing reserves for its internal timeouts. */
    public static final long LIBURING_UDATA_TIMEOUT = -1L;

    // ---- library and downcall handles ----
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LOOKUP;
    /** Why the library could not be loaded, or null. */
    public static final String LOAD_ERROR;
    public static final boolean AVAILABLE;

    static {
        SymbolLookup lookup = null;
        String error = null;
        String override = System.getProperty("jbeam.liburing.lib");
        String[] candidates = override != null ? new String[] {override}
                : new String[] {LIBRARY, "/usr/lib/x86_64-linux-gnu/" + LIBRARY, "/usr/lib/aarch64-linux-gnu/" + LIBRARY,
                        "/usr/lib64/" + LIBRARY, "/usr/local/lib/" + LIBRARY};
        for (String c : candidates) {
            try { lookup = SymbolLookup.libraryLookup(c, Arena.global()); break; }
            catch (IllegalArgumentException e) { error = "cannot load " + c + ": " + e.getMessage(); }
        }
        LOOKUP = lookup;
        LOAD_ERROR = lookup == null ? error : null;
        AVAILABLE = lookup != null;
    }

    private static MethodHandle h(String name, FunctionDescriptor fd) {
        if (LOOKUP == null) return null;
        return LOOKUP.find(name).map(s -> LINKER.downcallHandle(s, fd)).orElse(null);
    }

    private static MethodHandle need(MethodHandle mh, String name) {
        if (mh == null) throw new UnsatisfiedLinkError(LOAD_ERROR != null ? LOAD_ERROR : "missing symbol " + name);
        return mh;
    }

    // Each downcall handle sits in a holder class of its own, so it is created on first use and is
    // still a constant to the JIT. Creating one costs milliseconds at boot (the linker spins a stub
    // class and lambda forms), and creating all of them eagerly was a fifth of bin/jbeam's start-up.
    private static final class QUEUE_INIT_PARAMS { static final MethodHandle H = h("io_uring_queue_init_params",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)); }
    private static final class QUEUE_INIT { static final MethodHandle H = h("io_uring_queue_init",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class QUEUE_EXIT { static final MethodHandle H = h("io_uring_queue_exit", FunctionDescriptor.ofVoid(ADDRESS)); }
    private static final class SUBMIT { static final MethodHandle H = h("io_uring_submit", FunctionDescriptor.of(JAVA_INT, ADDRESS)); }
    private static final class SUBMIT_AND_WAIT { static final MethodHandle H = h("io_uring_submit_and_wait",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class WAIT_CQE_TIMEOUT { static final MethodHandle H = h("io_uring_wait_cqe_timeout",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)); }
    private static final class GET_CQE { static final MethodHandle H = h("__io_uring_get_cqe",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS)); }
    private static final class GET_PROBE_RING { static final MethodHandle H = h("io_uring_get_probe_ring", FunctionDescriptor.of(ADDRESS, ADDRESS)); }
    private static final class GET_PROBE { static final MethodHandle H = h("io_uring_get_probe", FunctionDescriptor.of(ADDRESS)); }
    private static final class FREE_PROBE { static final MethodHandle H = h("io_uring_free_probe", FunctionDescriptor.ofVoid(ADDRESS)); }
    private static final class ENTER { static final MethodHandle H = h("io_uring_enter",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS)); }
    private static final class ENTER2 { static final MethodHandle H = h("io_uring_enter2",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG)); }

    private static final class REGISTER_BUF_RING { static final MethodHandle H = h("io_uring_register_buf_ring",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)); }
    private static final class UNREGISTER_BUF_RING { static final MethodHandle H = h("io_uring_unregister_buf_ring",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)); }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    /** {@code int io_uring_queue_init_params(unsigned entries, struct io_uring *ring, struct io_uring_params *p)}. */
    public static int io_uring_queue_init_params(int entries, MemorySegment ring, MemorySegment params) {
        try { return (int) need(QUEUE_INIT_PARAMS.H, "io_uring_queue_init_params").invokeExact(entries, ring, params); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int io_uring_register_buf_ring(struct io_uring *ring, struct io_uring_buf_reg *reg, unsigned flags)} (5.19). */
    public static int io_uring_register_buf_ring(MemorySegment ring, MemorySegment reg, int flags) {
        try { return (int) need(REGISTER_BUF_RING.H, "io_uring_register_buf_ring").invokeExact(ring, reg, flags); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int io_uring_unregister_buf_ring(struct io_uring *ring, int bgid)}. */
    public static int io_uring_unregister_buf_ring(MemorySegment ring, int bgid) {
        try { return (int) need(UNREGISTER_BUF_RING.H, "io_uring_unregister_buf_ring").invokeExact(ring, bgid); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int io_uring_queue_init(unsigned entries, struct io_uring *ring, unsigned flags)}. */
    public static int io_uring_queue_init(int entries, MemorySegment ring, int flags) {
        try { return (int) need(QUEUE_INIT.H, "io_uring_queue_init").invokeExact(entries, ring, flags); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code void io_uring_queue_exit(struct io_uring *ring)}. */
    public static void io_uring_queue_exit(MemorySegment ring) {
        try { need(QUEUE_EXIT.H, "io_uring_queue_exit").invokeExact(ring); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int io_uring_submit(struct io_uring *ring)}: number of SQEs submitted or -errno. */
    public static int io_uring_submit(MemorySegment ring) {
        try { return (int) need(SUBMIT.H, "io_uring_submit").invokeExact(ring); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)}. */
    public static int io_uring_submit_and_wait(MemorySegment ring, int waitNr) {
        try { return (int) need(SUBMIT_AND_WAIT.H, "io_uring_submit_and_wait").invokeExact(ring, waitNr); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int io_uring_wait_cqe_timeout(struct io_uring *, struct io_uring_cqe **, struct __kernel_timespec *)}. */
    public static int io_uring_wait_cqe_timeout(MemorySegment ring, MemorySegment cqePtr, MemorySegment ts) {
        try { return (int) need(WAIT_CQE_TIMEOUT.H, "io_uring_wait_cqe_timeout").invokeExact(ring, cqePtr, ts); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int __io_uring_get_cqe(struct io_uring *, struct io_uring_cqe **, unsigned submit, unsigned wait_nr, sigset_t *)}. */
    public static int __io_uring_get_cqe(MemorySegment ring, MemorySegment cqePtr, int submit, int waitNr, MemorySegment sigmask) {
        try { return (int) need(GET_CQE.H, "__io_uring_get_cqe").invokeExact(ring, cqePtr, submit, waitNr, sigmask); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code struct io_uring_probe *io_uring_get_probe_ring(struct io_uring *ring)}; NULL on failure. */
    public static MemorySegment io_uring_get_probe_ring(MemorySegment ring) {
        try { return (MemorySegment) need(GET_PROBE_RING.H, "io_uring_get_probe_ring").invokeExact(ring); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code struct io_uring_probe *io_uring_get_probe(void)}; NULL on failure. */
    public static MemorySegment io_uring_get_probe() {
        try { return (MemorySegment) need(GET_PROBE.H, "io_uring_get_probe").invokeExact(); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code void io_uring_free_probe(struct io_uring_probe *probe)}. */
    public static void io_uring_free_probe(MemorySegment probe) {
        try { need(FREE_PROBE.H, "io_uring_free_probe").invokeExact(probe); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code int io_uring_enter(unsigned fd, unsigned to_submit, unsigned min_complete, unsigned flags, sigset_t *sig)}. */
    public static int io_uring_enter(int fd, int toSubmit, int minComplete, int flags, MemorySegment sig) {
        try { return (int) need(ENTER.H, "io_uring_enter").invokeExact(fd, toSubmit, minComplete, flags, sig); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /**
     * {@code int io_uring_enter2(unsigned fd, unsigned to_submit, unsigned min_complete, unsigned flags, void *arg, size_t sz)}:
     * with {@link #IORING_ENTER_EXT_ARG}, {@code arg} is a {@code struct io_uring_getevents_arg} ({@link #GETEVENTS_ARG_SIZE} bytes).
     */
    public static int io_uring_enter2(int fd, int toSubmit, int minComplete, int flags, MemorySegment arg, long size) {
        try { return (int) need(ENTER2.H, "io_uring_enter2").invokeExact(fd, toSubmit, minComplete, flags, arg, size); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /**
     * {@code struct io_uring_getevents_arg { __u64 sigmask; __u32 sigmask_sz; __u32 min_wait_usec; __u64 ts; }}
     * (min_wait_usec was padding before 6.12; IORING_FEAT_MIN_TIMEOUT says the kernel reads it).
     */
    public static final long GETEVENTS_ARG_SIZE = 24, GETEVENTS_MIN_WAIT_USEC = 12, GETEVENTS_TS = 16;

    // ---- static-inline prep helpers (liburing.h 2.3), on a 64-byte SQE segment ----

    /** {@code io_uring_prep_rw}: fills every field the helper clears. */
    public static void io_uring_prep_rw(int op, MemorySegment sqe, int fd, long addr, int len, long offset) {
        IoUringSqe.opcode(sqe, op);
        IoUringSqe.flags(sqe, 0);
        IoUringSqe.ioprio(sqe, 0);
        IoUringSqe.fd(sqe, fd);
        IoUringSqe.off(sqe, offset);
        IoUringSqe.addr(sqe, addr);
        IoUringSqe.len(sqe, len);
        IoUringSqe.opFlags(sqe, 0);
        IoUringSqe.bufIndex(sqe, 0);
        IoUringSqe.personality(sqe, 0);
        IoUringSqe.fileIndex(sqe, 0);
        IoUringSqe.addr3(sqe, 0);
        IoUringSqe.pad2(sqe, 0);
    }
    public static void io_uring_prep_nop(MemorySegment sqe) { io_uring_prep_rw(IORING_OP_NOP, sqe, -1, 0, 0, 0); }
    public static void io_uring_prep_read(MemorySegment sqe, int fd, MemorySegment buf, int nbytes, long offset) {
        io_uring_prep_rw(IORING_OP_READ, sqe, fd, buf.address(), nbytes, offset);
    }
    public static void io_uring_prep_write(MemorySegment sqe, int fd, MemorySegment buf, int nbytes, long offset) {
        io_uring_prep_rw(IORING_OP_WRITE, sqe, fd, buf.address(), nbytes, offset);
    }
    public static void io_uring_prep_fsync(MemorySegment sqe, int fd, int fsyncFlags) {
        io_uring_prep_rw(IORING_OP_FSYNC, sqe, fd, 0, 0, 0);
        IoUringSqe.opFlags(sqe, fsyncFlags);
    }
    public static void io_uring_prep_openat(MemorySegment sqe, int dfd, MemorySegment path, int flags, int mode) {
        io_uring_prep_rw(IORING_OP_OPENAT, sqe, dfd, path.address(), mode, 0);
        IoUringSqe.opFlags(sqe, flags);
    }
    public static void io_uring_prep_close(MemorySegment sqe, int fd) { io_uring_prep_rw(IORING_OP_CLOSE, sqe, fd, 0, 0, 0); }
    /** {@code addr}/{@code addrlen} may be {@link MemorySegment#NULL}. */
    public static void io_uring_prep_accept(MemorySegment sqe, int fd, MemorySegment addr, MemorySegment addrlen, int flags) {
        io_uring_prep_rw(IORING_OP_ACCEPT, sqe, fd, addr.address(), 0, addrlen.address());
        IoUringSqe.opFlags(sqe, flags);
    }
    public static void io_uring_prep_connect(MemorySegment sqe, int fd, MemorySegment addr, int addrlen) {
        io_uring_prep_rw(IORING_OP_CONNECT, sqe, fd, addr.address(), 0, addrlen);
    }
    public static void io_uring_prep_send(MemorySegment sqe, int sockfd, MemorySegment buf, long len, int flags) {
        io_uring_prep_rw(IORING_OP_SEND, sqe, sockfd, buf.address(), (int) len, 0);
        IoUringSqe.opFlags(sqe, flags);
    }
    public static void io_uring_prep_recv(MemorySegment sqe, int sockfd, MemorySegment buf, long len, int flags) {
        io_uring_prep_rw(IORING_OP_RECV, sqe, sockfd, buf.address(), (int) len, 0);
        IoUringSqe.opFlags(sqe, flags);
    }
    /** {@code sqe->ioprio} flags of IORING_OP_RECV / SEND (io_uring.h 2.3). */
    public static final int IORING_RECVSEND_POLL_FIRST = 1, IORING_RECV_MULTISHOT = 1 << 1;
    /**
     * {@code io_uring_prep_recv_multishot} with a buffer group: one SQE that keeps receiving into
     * buffers the kernel picks from provided-buffer group {@code bgid} (IOSQE_BUFFER_SELECT), one CQE
     * per buffer with IORING_CQE_F_MORE while it stays armed (6.0). {@code len} must be 0 before 6.10.
     */
    public static void io_uring_prep_recv_multishot(MemorySegment sqe, int sockfd, int bgid, int flags) {
        io_uring_prep_rw(IORING_OP_RECV, sqe, sockfd, 0, 0, 0);
        IoUringSqe.opFlags(sqe, flags);
        IoUringSqe.ioprio(sqe, IORING_RECV_MULTISHOT);
        IoUringSqe.flags(sqe, IOSQE_BUFFER_SELECT);
        IoUringSqe.bufIndex(sqe, bgid);      // the buf_index / buf_group union
    }
    /** {@code io_uring_prep_recvmsg}: the kernel reads {@code msghdr} (and what it points to) when the op is issued. */
    public static void io_uring_prep_recvmsg(MemorySegment sqe, int fd, MemorySegment msghdr, int flags) {
        io_uring_prep_rw(IORING_OP_RECVMSG, sqe, fd, msghdr.address(), 1, 0);
        IoUringSqe.opFlags(sqe, flags);
    }
    /** {@code io_uring_prep_sendmsg}. */
    public static void io_uring_prep_sendmsg(MemorySegment sqe, int fd, MemorySegment msghdr, int flags) {
        io_uring_prep_rw(IORING_OP_SENDMSG, sqe, fd, msghdr.address(), 1, 0);
        IoUringSqe.opFlags(sqe, flags);
    }
    public static void io_uring_prep_cancel64(MemorySegment sqe, long userData, int flags) {
        io_uring_prep_rw(IORING_OP_ASYNC_CANCEL, sqe, -1, 0, 0, 0);
        IoUringSqe.addr(sqe, userData);
        IoUringSqe.opFlags(sqe, flags);
    }
    /** {@code sqe->len} flags of IORING_OP_POLL_ADD / POLL_REMOVE (io_uring.h 2.3). */
    public static final int IORING_POLL_ADD_MULTI = 1, IORING_POLL_UPDATE_EVENTS = 1 << 1,
            IORING_POLL_UPDATE_USER_DATA = 1 << 2, IORING_POLL_ADD_LEVEL = 1 << 3;
    /** {@code io_uring_prep_poll_add}: one-shot poll for {@code pollMask} (poll32_events, little-endian). */
    public static void io_uring_prep_poll_add(MemorySegment sqe, int fd, int pollMask) {
        io_uring_prep_rw(IORING_OP_POLL_ADD, sqe, fd, 0, 0, 0);
        IoUringSqe.opFlags(sqe, pollMask);
    }
    /** {@code io_uring_prep_poll_multishot}. */
    public static void io_uring_prep_poll_multishot(MemorySegment sqe, int fd, int pollMask) {
        io_uring_prep_poll_add(sqe, fd, pollMask);
        IoUringSqe.len(sqe, IORING_POLL_ADD_MULTI);
    }
    /** {@code io_uring_prep_poll_remove}: removes the poll whose user_data is {@code userData}. */
    public static void io_uring_prep_poll_remove(MemorySegment sqe, long userData) {
        io_uring_prep_rw(IORING_OP_POLL_REMOVE, sqe, -1, 0, 0, 0);
        IoUringSqe.addr(sqe, userData);
    }
    /** {@code io_uring_prep_poll_update}: changes the mask (and/or user_data) of an armed poll. */
    public static void io_uring_prep_poll_update(MemorySegment sqe, long oldUserData, long newUserData, int pollMask, int flags) {
        io_uring_prep_rw(IORING_OP_POLL_REMOVE, sqe, -1, 0, flags, newUserData);
        IoUringSqe.addr(sqe, oldUserData);
        IoUringSqe.opFlags(sqe, pollMask);
    }
    public static void io_uring_sqe_set_data64(MemorySegment sqe, long data) { IoUringSqe.userData(sqe, data); }
    public static void io_uring_sqe_set_flags(MemorySegment sqe, int flags) { IoUringSqe.flags(sqe, flags); }
}
