package org.jbeam.bindings.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * jextract-style FFM bindings to the glibc system calls jbeam's blocking I/O backend and its tests
 * need ({@code unistd.h}, {@code fcntl.h}, {@code sys/socket.h}, {@code sys/eventfd.h} of glibc
 * 2.36, Linux x86-64). Every wrapper follows the kernel/io_uring convention: it returns the
 * result ({@code >= 0}) or {@code -errno}, errno being captured by the linker
 * ({@code Linker.Option.captureCallState("errno")}) into a per-thread buffer.
 */
public final class Libc {
    private Libc() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LOOKUP = LINKER.defaultLookup();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final ThreadLocal<MemorySegment> STATE = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE));

    private static MethodHandle h(String name, FunctionDescriptor fd, Linker.Option... opts) {
        MemorySegment sym = LOOKUP.find(name).orElseThrow(() -> new UnsatisfiedLinkError("missing libc symbol " + name));
        return LINKER.downcallHandle(sym, fd, opts);
    }
    /** A handle whose first parameter is the errno capture segment. */
    private static MethodHandle e(String name, FunctionDescriptor fd) { return h(name, fd, CAPTURE_ERRNO); }

    // Each downcall handle sits in a holder class of its own, so it is created on first use and is
    // still a constant to the JIT. Creating one costs milliseconds at boot (the linker spins a stub
    // class and lambda forms), and creating all of them eagerly was a fifth of bin/jbeam's start-up.
    private static final class OPENAT { static final MethodHandle H = h("openat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            CAPTURE_ERRNO, Linker.Option.firstVariadicArg(3)); }
    private static final class CLOSE { static final MethodHandle H = e("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT)); }
    private static final class READ { static final MethodHandle H = e("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG)); }
    private static final class WRITE { static final MethodHandle H = e("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG)); }
    private static final class PREAD { static final MethodHandle H = e("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG)); }
    private static final class PWRITE { static final MethodHandle H = e("pwrite", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG)); }
    private static final class FSYNC { static final MethodHandle H = e("fsync", FunctionDescriptor.of(JAVA_INT, JAVA_INT)); }
    private static final class FDATASYNC { static final MethodHandle H = e("fdatasync", FunctionDescriptor.of(JAVA_INT, JAVA_INT)); }
    private static final class POSIX_FADVISE { static final MethodHandle H = h("posix_fadvise",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT)); }
    private static final class UNLINK { static final MethodHandle H = e("unlink", FunctionDescriptor.of(JAVA_INT, ADDRESS)); }
    private static final class SOCKET { static final MethodHandle H = e("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT)); }
    private static final class BIND { static final MethodHandle H = e("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class LISTEN { static final MethodHandle H = e("listen", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT)); }
    private static final class ACCEPT4 { static final MethodHandle H = e("accept4", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)); }
    private static final class CONNECT { static final MethodHandle H = e("connect", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class RECV { static final MethodHandle H = e("recv", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT)); }
    private static final class SEND { static final MethodHandle H = e("send", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT)); }
    private static final class SHUTDOWN { static final MethodHandle H = e("shutdown", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT)); }
    private static final class SETSOCKOPT { static final MethodHandle H = e("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class GETSOCKNAME { static final MethodHandle H = e("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)); }
    private static final class GETPEERNAME { static final MethodHandle H = e("getpeername", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)); }
    private static final class GETSOCKOPT { static final MethodHandle H = e("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)); }
    private static final class SENDTO { static final MethodHandle H = e("sendto",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class RECVFROM { static final MethodHandle H = e("recvfrom",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS)); }
    private static final class FCNTL { static final MethodHandle H = h("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2)); }
    private static final class SENDFILE { static final MethodHandle H = e("sendfile",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG)); }
    private static final class EVENTFD { static final MethodHandle H = e("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT)); }
    private static final class EVENTFD_WRITE { static final MethodHandle H = e("eventfd_write", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG)); }
    private static final class SCHED_SETSCHEDULER { static final MethodHandle H = e("sched_setscheduler", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS)); }
    private static final class SETPRIORITY { static final MethodHandle H = e("setpriority", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT)); }
    private static final class STRERROR { static final MethodHandle H = h("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT)); }
    // critical: neither calls back into Java nor blocks for long
    private static final class MALLOC { static final MethodHandle H = h("malloc", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), Linker.Option.critical(false)); }
    private static final class FREE { static final MethodHandle H = h("free", FunctionDescriptor.ofVoid(JAVA_LONG), Linker.Option.critical(false)); }

    /** {@code int eventfd(unsigned, int)} flags. */
    public static final int EFD_CLOEXEC = 02000000, EFD_NONBLOCK = 04000, EFD_SEMAPHORE = 1;

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error err) throw err;
        return new IllegalStateException(t);
    }
    private static int ret(MemorySegment st, int r) { return r >= 0 ? r : -(int) ERRNO.get(st, 0L); }
    private static long ret(MemorySegment st, long r) { return r >= 0 ? r : -(int) ERRNO.get(st, 0L); }

    /** {@code openat(dirfd, path, flags, mode)}; {@code path} a NUL-terminated string. */
    public static int openat(int dirfd, MemorySegment path, int flags, int mode) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) OPENAT.H.invokeExact(st, dirfd, path, flags, mode)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int close(int fd) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) CLOSE.H.invokeExact(st, fd)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long read(int fd, MemorySegment buf, long count) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) READ.H.invokeExact(st, fd, buf, count)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long write(int fd, MemorySegment buf, long count) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) WRITE.H.invokeExact(st, fd, buf, count)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long pread(int fd, MemorySegment buf, long count, long offset) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) PREAD.H.invokeExact(st, fd, buf, count, offset)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long pwrite(int fd, MemorySegment buf, long count, long offset) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) PWRITE.H.invokeExact(st, fd, buf, count, offset)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int fsync(int fd) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) FSYNC.H.invokeExact(st, fd)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int fdatasync(int fd) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) FDATASYNC.H.invokeExact(st, fd)); } catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code posix_fadvise} advice values. */
    public static final int POSIX_FADV_NORMAL = 0, POSIX_FADV_SEQUENTIAL = 2, POSIX_FADV_DONTNEED = 4;

    /** {@code posix_fadvise(fd, offset, len, advice)}: returns 0 or -errno (it reports errors itself, not via errno). */
    public static int posixFadvise(int fd, long offset, long len, int advice) {
        try { return -(int) POSIX_FADVISE.H.invokeExact(fd, offset, len, advice); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int unlink(MemorySegment path) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) UNLINK.H.invokeExact(st, path)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int socket(int domain, int type, int protocol) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) SOCKET.H.invokeExact(st, domain, type, protocol)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int bind(int fd, MemorySegment addr, int addrlen) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) BIND.H.invokeExact(st, fd, addr, addrlen)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int listen(int fd, int backlog) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) LISTEN.H.invokeExact(st, fd, backlog)); } catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code accept4}; {@code addr}/{@code addrlen} may be {@link MemorySegment#NULL}. */
    public static int accept4(int fd, MemorySegment addr, MemorySegment addrlen, int flags) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) ACCEPT4.H.invokeExact(st, fd, addr, addrlen, flags)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int connect(int fd, MemorySegment addr, int addrlen) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) CONNECT.H.invokeExact(st, fd, addr, addrlen)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long recv(int fd, MemorySegment buf, long len, int flags) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) RECV.H.invokeExact(st, fd, buf, len, flags)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long send(int fd, MemorySegment buf, long len, int flags) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) SEND.H.invokeExact(st, fd, buf, len, flags)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int shutdown(int fd, int how) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) SHUTDOWN.H.invokeExact(st, fd, how)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int setsockopt(int fd, int level, int name, MemorySegment value, int len) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) SETSOCKOPT.H.invokeExact(st, fd, level, name, value, len)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int getsockname(int fd, MemorySegment addr, MemorySegment addrlen) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) GETSOCKNAME.H.invokeExact(st, fd, addr, addrlen)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int getpeername(int fd, MemorySegment addr, MemorySegment addrlen) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) GETPEERNAME.H.invokeExact(st, fd, addr, addrlen)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int getsockopt(int fd, int level, int name, MemorySegment value, MemorySegment len) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) GETSOCKOPT.H.invokeExact(st, fd, level, name, value, len)); } catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code sendto}; {@code addr} may be {@link MemorySegment#NULL} with length 0 (a connected socket). */
    public static long sendto(int fd, MemorySegment buf, long len, int flags, MemorySegment addr, int addrlen) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) SENDTO.H.invokeExact(st, fd, buf, len, flags, addr, addrlen)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long recvfrom(int fd, MemorySegment buf, long len, int flags, MemorySegment addr, MemorySegment addrlen) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) RECVFROM.H.invokeExact(st, fd, buf, len, flags, addr, addrlen)); } catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code sendfile(out, in, &offset, count)}: {@code offset} an off_t cell that the call advances. */
    public static long sendfile(int outFd, int inFd, MemorySegment offset, long count) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) SENDFILE.H.invokeExact(st, outFd, inFd, offset, count)); } catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code fcntl} commands with an int argument (or none). */
    public static final int F_GETFL = 3, F_SETFL = 4, F_DUPFD_CLOEXEC = 1030;
    /** {@code fcntl(fd, cmd, arg)} for the int-argument commands. */
    public static int fcntl(int fd, int cmd, int arg) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) FCNTL.H.invokeExact(st, fd, cmd, arg)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int eventfd(int initval, int flags) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) EVENTFD.H.invokeExact(st, initval, flags)); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int eventfdWrite(int fd, long value) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) EVENTFD_WRITE.H.invokeExact(st, fd, value)); } catch (Throwable t) { throw rethrow(t); }
    }
    /** Scheduling policies of {@code sched_setscheduler(2)} (Linux). */
    public static final int SCHED_OTHER = 0, SCHED_BATCH = 3, SCHED_IDLE = 5;

    /**
     * {@code sched_setscheduler(0, policy, {0})}: sets the calling thread's policy (Linux applies a
     * pid of 0 to the calling thread, not the process). 0 or -errno.
     */
    public static int schedSetSchedulerSelf(int policy) {
        MemorySegment st = STATE.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment param = a.allocate(JAVA_INT);
            return ret(st, (int) SCHED_SETSCHEDULER.H.invokeExact(st, 0, policy, param));
        } catch (Throwable t) { throw rethrow(t); }
    }

    /**
     * {@code setpriority(PRIO_PROCESS, 0, nice)}: the calling thread's nice value (on Linux the nice
     * value is per thread and a who of 0 is the caller). Raising it needs no privilege. 0 or -errno.
     */
    public static int setNiceSelf(int nice) {
        MemorySegment st = STATE.get();
        try { return ret(st, (int) SETPRIORITY.H.invokeExact(st, 0, 0, nice)); } catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code strerror(errnum)} (errnum positive). */
    public static String strerror(int errnum) {
        try { return ((MemorySegment) STRERROR.H.invokeExact(errnum)).reinterpret(Long.MAX_VALUE).getString(0); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /**
     * {@code n} bytes from malloc as a segment with no liveness checks, to be given back with {@link #free}.
     * For buffers whose lifetime the caller tracks itself: unlike a shared {@link Arena}, freeing one costs
     * no JVM-wide handshake.
     */
    public static MemorySegment malloc(long n) {
        long a;
        try { a = (long) MALLOC.H.invokeExact(Math.max(1L, n)); } catch (Throwable t) { throw rethrow(t); }
        if (a == 0) throw new OutOfMemoryError("malloc(" + n + ")");
        return MemorySegment.ofAddress(a).reinterpret(n);
    }
    public static void free(MemorySegment m) {
        try { FREE.H.invokeExact(m.address()); } catch (Throwable t) { throw rethrow(t); }
    }
}
