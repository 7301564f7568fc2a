package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.liburing.IoUring;
import org.jbeam.bindings.liburing.IoUringParams;
import org.jbeam.bindings.liburing.IoUringRings;
import org.jbeam.bindings.liburing.LibUring;

import static org.jbeam.bindings.liburing.LibUring.*;

/**
 * The io_uring {@link CompletionRing} backend (liburing 2.3 through FFM). One thread owns the
 * ring: it moves staged requests into SQEs, submits them all and waits for completions in a single
 * {@code io_uring_enter}, reaps every ready CQE and runs the callbacks. Other threads only queue
 * requests and, if the owner sleeps in the kernel, wake it by writing an eventfd on which the owner
 * always keeps a read in flight. The owner is either a dedicated reaper thread (the default) or,
 * in caller-driven mode, whichever thread calls {@link #submit()} or {@link #poll(long)} (ADR 0005
 * compares the two). At most {@code cq_entries} operations are in flight (so the CQ never
 * overflows); the rest wait in the queue. Kernel user_data is the request's slot index.
 */
public final class IoUringRing extends AbstractRing {
    private static final long WAKE_UD = 1L << 40, CANCEL_UD = WAKE_UD + 1;
    private static final int[] NEEDED_OPS = {IORING_OP_NOP, IORING_OP_READ, IORING_OP_WRITE, IORING_OP_FSYNC,
            IORING_OP_OPENAT, IORING_OP_CLOSE, IORING_OP_ACCEPT, IORING_OP_CONNECT, IORING_OP_SEND, IORING_OP_RECV,
            IORING_OP_ASYNC_CANCEL};

    private final Arena arena = Arena.ofShared();
    private final MemorySegment ring;
    private final IoUringRings rings;
    private final int maxInflight;
    private final IoRequest[] slots;
    private final int[] freeSlots;
    private int freeTop, inflight;            // owner thread only
    private final long[] reapUd;
    private final int[] reapRes;
    private final ConcurrentLinkedQueue<IoRequest> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private final ReentrantLock owner = new ReentrantLock();
    private final int wakeFd;
    private final MemorySegment wakeBuf, cqePtr, timespec;
    private boolean wakeArmed, shutDown;      // owner thread only
    private volatile boolean closed;
    private final Thread reaper;
    /** HYBRID mode: reaps completions the submitting threads did not see (null otherwise). */
    private final Thread backstop;

    /** Who drives the ring (ADR 0005 measures them). */
    public enum Mode {
        /** A dedicated thread submits and reaps: every operation is a hand-off to it and back. */
        REAPER,
        /** The caller submits ({@link #submit()}) and reaps ({@link #poll(long)}) on its own thread. */
        CALLER,
        /**
         * Caller-driven submission, so operations the kernel completes inside {@code io_uring_enter}
         * (page-cache reads and writes) are delivered on the submitting thread without any
         * hand-off; a backstop thread waits in the kernel only while operations remain
         * outstanding after their submitter's turn (disk I/O, fsync, io-wq punts).
         */
        HYBRID
    }

    /** A ring of {@code entries} SQEs (2x CQEs) with a reaper thread. */
    public IoUringRing(int entries) { this(entries, true); }

    public IoUringRing(int entries, boolean reaperThread) { this(entries, reaperThread ? Mode.REAPER : Mode.CALLER); }

    /**
     * @param reaperThread true: a dedicated daemon thread drives the ring; false: caller-driven,
     *        {@link #submit()} submits on the calling thread and {@link #poll(long)} reaps.
     */
    public IoUringRing(int entries, Mode mode) {
        boolean reaperThread = mode == Mode.REAPER;
        String why = unavailableReason();
        if (why != null) throw new IllegalStateException("io_uring unavailable: " + why);
        ring = arena.allocate(IoUring.LAYOUT);
        MemorySegment params = arena.allocate(IoUringParams.LAYOUT);
        // A dedicated owner always enters the kernel to wait, so completions' task work need not
        // interrupt it (COOP_TASKRUN); callers of the caller-driven mode may not come back soon.
        int flags = reaperThread ? IoUringParams.IORING_SETUP_COOP_TASKRUN | IoUringParams.IORING_SETUP_TASKRUN_FLAG : 0;
        IoUringParams.flags(params, flags);
        int rc = io_uring_queue_init_params(entries, ring, params);
        if (rc == -Errno.EINVAL && flags != 0) {
            params.fill((byte) 0);
            rc = io_uring_queue_init_params(entries, ring, params);
        }
        if (rc < 0) { arena.close(); throw new IllegalStateException("io_uring_queue_init_params: " + Errno.name(-rc)); }
        rings = new IoUringRings(ring);
        maxInflight = rings.cqEntries;
        slots = new IoRequest[maxInflight];
        freeSlots = new int[maxInflight];
        for (int i = 0; i < maxInflight; i++) freeSlots[i] = maxInflight - 1 - i;
        freeTop = maxInflight;
        reapUd = new long[rings.cqEntries];
        reapRes = new int[rings.cqEntries];
        wakeFd = Libc.eventfd(0, Libc.EFD_CLOEXEC);
        if (wakeFd < 0) { io_uring_queue_exit(ring); arena.close(); throw new IllegalStateException("eventfd: " + Errno.name(-wakeFd)); }
        wakeBuf = arena.allocate(8);
        cqePtr = arena.allocate(ValueLayout.ADDRESS);
        timespec = arena.allocate(16);
        if (reaperThread) {
            reaper = new Thread(this::reaperLoop, "jbeam-io-uring");
            reaper.setDaemon(true);
            reaper.start();
        } else reaper = null;
        if (mode == Mode.HYBRID) {
            backstop = new Thread(this::backstopLoop, "jbeam-io-uring-backstop");
            backstop.setDaemon(true);
            backstop.start();
        } else backstop = null;
    }

    @Override public String backendName() { return "io_uring"; }
    public int sqEntries() { return rings.sqEntries; }
    public int cqEntries() { return rings.cqEntries; }
    public int features() { return IoUring.features(ring); }
    /** True when created without a reaper thread: callers drive it with {@link #poll(long)}. */
    public boolean callerDriven() { return reaper == null; }

    @Override void stage(IoRequest r) {
        if (closed) throw new IllegalStateException("ring closed");
        outstanding.incrementAndGet();
        pending.add(r);
    }

    @Override public int outstanding() { return outstanding.get(); }

    @Override public void submit() {
        // caller-driven: submit on this thread, unless it is already the owner (a callback running
        // inside poll: the ongoing turn loop picks the new requests up)
        if (reaper == null && !owner.isHeldByCurrentThread() && owner.tryLock()) {
            try {
                // Completion callbacks may stage follow-up steps (the next chunk of a long read):
                // a few more turns submit them while the data is still hot.
                if (!shutDown) for (int k = 0; k < 4 && (k == 0 || !pending.isEmpty()); k++) turn(0);
            } finally { owner.unlock(); }
            if (backstop != null && outstanding.get() > 0) LockSupport.unpark(backstop);
            if (pending.isEmpty()) return;
        } else if (backstop != null && !owner.isHeldByCurrentThread()) LockSupport.unpark(backstop);
        if (!pending.isEmpty() && sleeping.get() && sleeping.compareAndSet(true, false)) Libc.eventfdWrite(wakeFd, 1);
    }

    @Override public boolean submitAndSpin(java.util.function.BooleanSupplier stop, long spinNanos) {
        if (backstop == null) { submit(); return CompletionRing.spinWait(stop, spinNanos); }
        long end = System.nanoTime() + spinNanos;
        boolean first = true, done;
        // Drive the ring from this thread: reaping a CQE without a syscall when nothing is left to
        // submit; only if the spin runs out does the backstop thread take over the waiting.
        while (true) {
            if (!owner.isHeldByCurrentThread() && owner.tryLock()) {
                try { if (!shutDown) for (int k = 0; k < 4 && (k == 0 || !pending.isEmpty()); k++) turn(0); }
                finally { owner.unlock(); }
            } else if (first && !pending.isEmpty() && sleeping.get() && sleeping.compareAndSet(true, false)) {
                Libc.eventfdWrite(wakeFd, 1);
            }
            first = false;
            if (done = stop.getAsBoolean()) break;
            if (System.nanoTime() - end >= 0) break;
            if (CompletionRing.YIELD) Thread.yield(); else Thread.onSpinWait();
        }
        if (outstanding.get() > 0) LockSupport.unpark(backstop);
        return done;
    }

    /** HYBRID: waits in the kernel for completions no submitter reaped; parks while nothing is outstanding. */
    private void backstopLoop() {
        try {
            while (!closed) {
                if (outstanding.get() == 0) { LockSupport.parkNanos(this, 100_000_000L); continue; }
                owner.lock();
                try { if (!shutDown && !closed) turn(10_000_000L); } finally { owner.unlock(); }
            }
        } catch (Throwable t) {
            System.getLogger("org.jbeam.io").log(System.Logger.Level.ERROR, "io_uring backstop failed", t);
        }
    }

    /**
     * Caller-driven mode: submits staged requests and delivers ready completions, waiting up to
     * {@code timeoutNanos} (0: do not wait, negative: until at least one completion) when there
     * are none. Returns the number of completions delivered.
     */
    public int poll(long timeoutNanos) {
        if (reaper != null) throw new IllegalStateException("ring has a reaper thread");
        if (owner.isHeldByCurrentThread()) throw new IllegalStateException("poll from a completion callback");
        owner.lock();
        try { return shutDown ? 0 : turn(timeoutNanos); } finally { owner.unlock(); }
    }

    private void reaperLoop() {
        try {
            while (!closed) turn(-1);
        } catch (Throwable t) {
            closed = true;
            System.getLogger("org.jbeam.io").log(System.Logger.Level.ERROR, "io_uring reaper failed", t);
        } finally {
            shutdown();
        }
    }

    /** One owner turn: fill SQEs, one io_uring_enter (maybe waiting), reap. Returns completions delivered. */
    private int turn(long timeoutNanos) {
        fill();
        boolean block = false;
        if (timeoutNanos != 0 && rings.cqReady() == 0) {
            if (pending.isEmpty()) {
                sleeping.set(true);
                if (pending.isEmpty() && !closed) block = true; else sleeping.set(false);
            } else block = inflight >= maxInflight;   // room only comes from completions
        }
        int rc;
        if (block && timeoutNanos > 0) {
            rc = rings.submitAndWait(0);
            if (rc >= 0 && rings.cqReady() == 0) {
                timespec.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
                timespec.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
                rc = io_uring_wait_cqe_timeout(ring, cqePtr, timespec);
                if (rc == -Errno.ETIME) rc = 0;
            }
        } else rc = rings.submitAndWait(block ? 1 : 0);
        sleeping.set(false);
        if (rc < 0 && rc != -Errno.EINTR && rc != -Errno.EAGAIN && rc != -Errno.EBUSY)
            throw new IllegalStateException("io_uring_enter: " + Errno.name(-rc));
        return reap();
    }

    /** Moves queued requests into SQEs while the SQ has room and the in-flight budget allows. */
    private void fill() {
        if (!wakeArmed && !closed && inflight < maxInflight) {
            MemorySegment sqe = rings.getSqe();
            if (sqe == null) return;
            io_uring_prep_read(sqe, wakeFd, wakeBuf, 8, 0);
            io_uring_sqe_set_data64(sqe, WAKE_UD);
            wakeArmed = true;
            inflight++;
        }
        while (inflight < maxInflight) {
            IoRequest r = pending.peek();   // only the owner removes, so poll() below returns r
            if (r == null) return;
            if (!r.mem.scope().isAlive()) {   // its arena was closed before submission: never hand the kernel freed memory
                pending.poll();
                deliver(r, -Errno.EFAULT);
                continue;
            }
            MemorySegment sqe = rings.getSqe();
            if (sqe == null) return;
            pending.poll();
            int slot = freeSlots[--freeTop];
            slots[slot] = r;
            prep(sqe, r);
            io_uring_sqe_set_data64(sqe, slot);
            inflight++;
        }
    }

    private static void prep(MemorySegment sqe, IoRequest r) {
        int len = (int) r.mem.byteSize();
        switch (r.op) {
            case NOP -> io_uring_prep_nop(sqe);
            case OPENAT -> io_uring_prep_openat(sqe, r.fd, r.mem, r.flags, r.mode);
            case CLOSE -> io_uring_prep_close(sqe, r.fd);
            case READ -> io_uring_prep_read(sqe, r.fd, r.mem, len, -1L);
            case WRITE -> io_uring_prep_write(sqe, r.fd, r.mem, len, -1L);
            case PREAD -> io_uring_prep_read(sqe, r.fd, r.mem, len, r.offset);
            case PWRITE -> io_uring_prep_write(sqe, r.fd, r.mem, len, r.offset);
            case FSYNC -> io_uring_prep_fsync(sqe, r.fd, 0);
            case FDATASYNC -> io_uring_prep_fsync(sqe, r.fd, IORING_FSYNC_DATASYNC);
            case ACCEPT -> io_uring_prep_accept(sqe, r.fd, MemorySegment.NULL, MemorySegment.NULL, r.flags);
            case CONNECT -> io_uring_prep_connect(sqe, r.fd, r.mem, len);
            case RECV -> io_uring_prep_recv(sqe, r.fd, r.mem, len, r.flags);
            case SEND -> io_uring_prep_send(sqe, r.fd, r.mem, len, r.flags);
        }
    }

    /** Copies out every ready CQE, returns them to the kernel, then runs the callbacks. */
    private int reap() {
        int head = rings.cqHead(), n = rings.cqTail() - head;
        for (int i = 0; i < n; i++) {
            reapUd[i] = rings.cqeUserData(head + i);
            reapRes[i] = rings.cqeRes(head + i);
        }
        rings.cqAdvance(n);
        int delivered = 0;
        for (int i = 0; i < n; i++) {
            long ud = reapUd[i];
            if (ud == LIBURING_UDATA_TIMEOUT) continue;
            inflight--;
            if (ud == WAKE_UD) { wakeArmed = false; continue; }
            if (ud == CANCEL_UD) continue;
            int slot = (int) ud;
            IoRequest r = slots[slot];
            slots[slot] = null;
            freeSlots[freeTop++] = slot;
            deliver(r, reapRes[i]);
            delivered++;
        }
        return delivered;
    }

    private void deliver(IoRequest r, int res) {
        outstanding.decrementAndGet();
        r.complete(res);
    }

    @Override public void close() {
        if (closed) return;
        closed = true;
        if (reaper != null) {
            Libc.eventfdWrite(wakeFd, 1);
            try { reaper.join(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        } else {
            if (backstop != null) {
                Libc.eventfdWrite(wakeFd, 1);
                LockSupport.unpark(backstop);
                try { backstop.join(1000); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
            }
            owner.lock();
            try { shutdown(); } finally { owner.unlock(); }
        }
    }

    /** Owner thread: cancel everything, reap for a grace period, tear the ring down. */
    private void shutdown() {
        if (shutDown) return;
        shutDown = true;
        try {
            for (IoRequest r; (r = pending.poll()) != null; ) deliver(r, IoRequest.ECANCELED);
            if (inflight > 0) {
                MemorySegment sqe = rings.getSqe();
                if (sqe != null) {
                    io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
                    io_uring_sqe_set_data64(sqe, CANCEL_UD);
                    inflight++;
                }
                long deadline = System.nanoTime() + 2_000_000_000L;
                while (inflight > 0 && System.nanoTime() < deadline) {
                    int rc = rings.submitAndWait(0);
                    if (rc >= 0 && rings.cqReady() == 0) {
                        timespec.set(ValueLayout.JAVA_LONG, 0, 0L);
                        timespec.set(ValueLayout.JAVA_LONG, 8, 50_000_000L);
                        io_uring_wait_cqe_timeout(ring, cqePtr, timespec);
                    }
                    reap();
                }
            }
            for (IoRequest r; (r = pending.poll()) != null; ) deliver(r, IoRequest.ECANCELED);
        } finally {
            io_uring_queue_exit(ring);
            Libc.close(wakeFd);
            for (int i = 0; i < slots.length; i++) {   // still in flight after the grace period
                IoRequest r = slots[i];
                if (r != null) { slots[i] = null; deliver(r, IoRequest.ECANCELED); }
            }
            arena.close();
        }
    }

    // ---- availability ----

    private static volatile String reason;
    private static volatile boolean probed;

    /** Null if io_uring can be used here, else why not (library, io_uring_setup, kernel features or opcodes). */
    public static String unavailableReason() {
        if (!probed) {
            synchronized (IoUringRing.class) {
                if (!probed) { reason = probe(); probed = true; }
            }
        }
        return reason;
    }

    private static String probe() {
        if (!LibUring.AVAILABLE) return LibUring.LOAD_ERROR;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(IoUring.LAYOUT), p = a.allocate(IoUringParams.LAYOUT);
            int rc = io_uring_queue_init_params(4, r, p);
            if (rc < 0) return "io_uring_queue_init_params: " + Errno.name(-rc) + " (" + Libc.strerror(-rc) + ")";
            try {
                int feat = IoUringParams.features(p);
                if ((feat & IoUringParams.IORING_FEAT_RW_CUR_POS) == 0) return "kernel lacks IORING_FEAT_RW_CUR_POS";
                if ((feat & IoUringParams.IORING_FEAT_EXT_ARG) == 0) return "kernel lacks IORING_FEAT_EXT_ARG";
                MemorySegment probe = io_uring_get_probe_ring(r);
                if (probe.equals(MemorySegment.NULL)) return "io_uring_get_probe_ring failed";
                try {
                    MemorySegment view = org.jbeam.bindings.liburing.IoUringProbe.view(probe);
                    for (int op : NEEDED_OPS)
                        if (!org.jbeam.bindings.liburing.IoUringProbe.opcodeSupported(view, op))
                            return "kernel does not support io_uring opcode " + op;
                } finally {
                    io_uring_free_probe(probe);
                }
            } finally {
                io_uring_queue_exit(r);
            }
            return null;
        } catch (UnsatisfiedLinkError e) {
            return e.getMessage();
        }
    }
}
