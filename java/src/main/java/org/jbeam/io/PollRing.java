package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.liburing.IoUring;
import org.jbeam.bindings.liburing.IoUringCqe;
import org.jbeam.bindings.liburing.IoUringRings;
import org.jbeam.bindings.liburing.LibUring;

import static org.jbeam.bindings.liburing.LibUring.*;

/**
 * Socket readiness on io_uring: the poll set of the inet drivers when io_uring is in use (ADR 0016),
 * in place of a java.nio Selector (epoll). One daemon thread owns a ring of its own (the file ring's
 * in-flight budget is sized for short operations; a socket's poll may wait for hours) and is the only
 * thread that touches the SQ, so the ring is set up ({@link PollRingSetup}) SINGLE_ISSUER | DEFER_TASKRUN
 * where the kernel has them: poll wake-ups are then run as task work only when that thread waits for
 * completions.
 *
 * <p>Each watched fd has a {@link Key} with a wanted poll mask. The ring thread keeps at most one
 * one-shot {@code IORING_OP_POLL_ADD} per key in flight, armed with the wanted mask; the kernel checks
 * readiness when the poll is armed, so each arm is level-triggered, and the poll is re-armed after its
 * completion has been dispatched if the key still wants something. Other threads only change the mask
 * and queue the key; they wake the ring thread (an eventfd on which it always keeps a read in flight)
 * only when it sleeps. A wanted bit that the armed mask lacks is added with a poll update; a bit no
 * longer wanted is left armed (dropping it costs an SQE, and the listener drops it on the next event
 * that finds nobody wanting it), as the NIO poll set does.
 *
 * <p>Closing: an armed poll holds a reference to the socket's file, so closing the fd alone would keep
 * the socket open (no FIN, a listen socket still accepting) until the poll fires. {@link Key#release}
 * therefore asks the ring thread to remove the poll and runs the caller's close action on that thread
 * once no poll of the key is in flight.
 */
public final class PollRing {
    /** poll(2) bits (x86-64 and generic). */
    public static final int POLLIN = 0x1, POLLPRI = 0x2, POLLOUT = 0x4, POLLERR = 0x8, POLLHUP = 0x10, POLLRDHUP = 0x2000;

    /** Called on the ring thread with the poll's revents (a failed poll reports POLLERR | POLLHUP). */
    @FunctionalInterface
    public interface Listener {
        void ready(int revents);
        /**
         * A receive ({@link Key#wantRecv}) completed: {@code n > 0} bytes at the start of {@code data}
         * (valid only during the call), 0 at end of stream, or -errno. With {@code more} false no receive
         * of the key is in flight during the call (the next is armed after it returns), so the listener
         * may read the socket itself; with {@code more} true a multishot receive stays armed and will
         * deliver what follows (a read of the listener's own would reorder the data).
         */
        default void received(MemorySegment data, int n, boolean more) {}
    }

    private static final long TAG_SHIFT = 56, TAG_POLL = 0, TAG_WAKE = 1L << TAG_SHIFT, TAG_IGNORE = 2L << TAG_SHIFT,
            TAG_RECV = 3L << TAG_SHIFT;
    /** Size of a key's receive buffer (off-heap, allocated at the first receive, freed at release), without multishot receives. */
    static final int RECV_BUF = RecvBufferRing.SIZE;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment ring;
    private volatile IoUringRings rings;
    private final int wakeFd;
    private final MemorySegment wakeBuf;
    private final ConcurrentLinkedQueue<Key> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private final Thread thread;
    private final String setup;
    /** The provided buffers of multishot receives, or null (then each key receives into a buffer of its own). */
    private RecvBufferRing bufs;
    /** Without multishot receives: each key's own receive buffer, pooled. */
    private final KeyBufferPool keyBufs = new KeyBufferPool();
    /** Ring thread only: keys whose multishot receive ended for want of a buffer, re-armed once buffers are back. */
    private final java.util.ArrayList<Key> starved = new java.util.ArrayList<>();

    private Key[] keys = new Key[1024];          // ring thread only: slot -> key with a poll in flight or pending release
    private int[] free = new int[1024];
    private int freeTop, nextSlot;
    private boolean wakeArmed;
    /** Ring thread only: receives and polls in flight, and completions reaped by the last wait (see {@link #waitNr}). */
    private int inFlight, lastBatch;
    /** The kernel takes a minimum wait (IORING_FEAT_MIN_TIMEOUT, 6.12): coalesced waits are possible. */
    private boolean minTimeout;
    private final MemorySegment waitArg = arena.allocate(LibUring.GETEVENTS_ARG_SIZE + 16, 8);

    /** One watched fd. Mask changes come from any thread; arming and release happen on the ring thread. */
    public final class Key {
        final int fd;
        final Listener listener;
        volatile int wanted;
        volatile boolean released;
        final AtomicBoolean queued = new AtomicBoolean();
        volatile Runnable onReleased;
        volatile boolean done;
        // ring thread only
        int armed, slot = -1, seq, recvSeq;
        boolean removeSent, recvArmed, recvCancelSent;
        /** The armed receive is multishot (provided buffers); recvStopSent: a cancel of it is in flight since the receive is no longer wanted. */
        boolean multishot, recvStopSent;
        volatile boolean recvWanted;
        MemorySegment buf;
        volatile MemorySegment msg;     // recvMsg: the owner's msghdr, else null

        Key(int fd, Listener l, int wanted) { this.fd = fd; this.listener = l; this.wanted = wanted; }

        public int fd() { return fd; }
        public int wanted() { return wanted; }
        /** False once {@link #release} was called. */
        public boolean isValid() { return !released; }

        /**
         * Sets the wanted poll mask. Bits added outside the ring thread queue the key and wake the ring
         * thread if needed; on the ring thread the key is looked at after the current dispatch.
         */
        public void want(int mask) {
            if (released) return;
            int old = wanted;
            if (old == mask) return;
            wanted = mask;
            if ((mask & ~old) != 0 || Thread.currentThread() == thread) enqueue(this);
        }

        /**
         * Keeps a receive in flight (IORING_OP_RECV into the key's own buffer) while {@code on}: the data
         * comes to {@link Listener#received} on the ring thread, without a read(2) of its own. While a
         * receive may be in flight nobody else may read the socket (the order of the data would break).
         */
        public void wantRecv(boolean on) {
            if (released || recvWanted == on) return;
            recvWanted = on;
            if (on || Thread.currentThread() == thread) enqueue(this);
        }

        /**
         * Receives with IORING_OP_RECVMSG on {@code msghdr} instead of IORING_OP_RECV into the key's buffer
         * (datagram sockets, which need the sender's address; ADR 0040). The caller owns the msghdr and
         * what it points to and must keep them alive until the release action has run; {@link
         * Listener#received} then gets the msghdr. Set before the first {@link #wantRecv}.
         */
        public void recvMsg(MemorySegment msghdr) { msg = msghdr; }

        /** Adds bits to the wanted mask (never removes any: see the class comment). */
        public void add(int mask) {
            int old = wanted;
            if ((old | mask) != old) want(old | mask);
        }

        /**
         * Stops watching and runs {@code then} (typically closing the fd) once nothing of this key is in
         * the kernel: at once on this thread if no poll or receive is in flight (a socket whose reader
         * was answered from its buffer), else on the ring thread after the removed poll's or cancelled
         * receive's completion.
         */
        public void release(Runnable then) {
            if (released) return;
            boolean now;
            synchronized (this) {     // against the ring thread arming: it checks released under this lock
                onReleased = then;
                released = true;
                now = armed == 0 && !recvArmed;
                if (now) done = true;
            }
            if (now) {
                then.run();
                enqueue(this, false);  // the ring thread frees the slot and buffer when it next looks
            } else enqueue(this, true);
        }

        /** True once the release action has run. */
        public boolean isReleased() { return done; }
    }

    /** Whether a coalesced wait may be used now (see {@link #waitNr}); true when no other condition is given. */
    private final java.util.function.BooleanSupplier mayCoalesce;

    public PollRing(int entries) { this(entries, () -> true); }

    /** {@code mayCoalesce}: asked before each wait while the ring is busy (the inet drivers: no scheduler thread parked). */
    public PollRing(int entries, java.util.function.BooleanSupplier mayCoalesce) {
        this.mayCoalesce = mayCoalesce;
        if (!LibUring.AVAILABLE) throw new IllegalStateException(LibUring.LOAD_ERROR);
        ring = arena.allocate(IoUring.LAYOUT);
        wakeBuf = arena.allocate(8);
        wakeFd = Libc.eventfd(0, Libc.EFD_CLOEXEC);
        if (wakeFd < 0) { arena.close(); throw new IllegalStateException("eventfd: " + Errno.name(-wakeFd)); }
        // SINGLE_ISSUER binds the ring to the task that creates it: the ring thread sets it up itself.
        java.util.concurrent.CompletableFuture<Object> init = new java.util.concurrent.CompletableFuture<>();
        thread = Thread.ofPlatform().daemon(true).name("jbeam-inet-uring").unstarted(() -> {
            Object r;
            try {
                PollRingSetup.Result s = PollRingSetup.setUp(ring, arena, entries);
                bufs = s.bufs();
                minTimeout = s.minTimeout();
                r = s.flags() + PollRingSetup.schedPolicy();
            } catch (RuntimeException e) { r = e; }
            init.complete(r);
            if (r instanceof String) run();
        });
        thread.setUncaughtExceptionHandler((th, e) -> e.printStackTrace());
        thread.start();
        Object r = init.join();
        if (r instanceof RuntimeException e) { Libc.close(wakeFd); arena.close(); throw e; }
        setup = (String) r;
        rings = new IoUringRings(ring);
    }

    /**
     * How connected sockets receive (erlang:system_info({jbeam, socket_receives})): multishot into
     * {@code buffers} provided buffers, with the completions that carried one and those that found
     * none (ENOBUFS), or one-shot into a buffer per socket (no provided buffers, no counts).
     */
    public record ReceiveStats(boolean multishot, int buffers, int bufferSize, long completions, long noBuffer) {}

    public ReceiveStats receiveStats() {
        RecvBufferRing b = bufs;
        return b == null ? new ReceiveStats(false, 0, RECV_BUF, 0, 0)
                : new ReceiveStats(true, RecvBufferRing.COUNT, RecvBufferRing.SIZE, b.filled, b.starved);
    }

    /** The setup flags the kernel accepted (for the log line). */
    public String setupFlags() { return setup; }

    /** Starts watching {@code fd} for {@code mask} (may be 0: armed later by {@link Key#want}). */
    public Key register(int fd, Listener l, int mask) {
        Key k = new Key(fd, l, mask);
        if (mask != 0) enqueue(k);
        return k;
    }

    public boolean onRingThread() { return Thread.currentThread() == thread; }

    private void enqueue(Key k) { enqueue(k, true); }

    private void enqueue(Key k, boolean wake) {
        if (k.queued.getAndSet(true)) return;
        queue.add(k);
        if (wake && Thread.currentThread() != thread && sleeping.get() && sleeping.compareAndSet(true, false)) Libc.eventfdWrite(wakeFd, 1);
    }

    private void run() {
        while (rings == null) Thread.onSpinWait();     // the constructor publishes it right after set-up
        while (true) {
            Key k;
            while ((k = queue.poll()) != null) {
                k.queued.set(false);
                sync(k);
            }
            if (!wakeArmed) {
                MemorySegment sqe = sqe();
                io_uring_prep_read(sqe, wakeFd, wakeBuf, 8, 0);
                io_uring_sqe_set_data64(sqe, TAG_WAKE);
                wakeArmed = true;
            }
            boolean block = false;
            if (rings.cqReady() == 0) {
                sleeping.set(true);
                if (queue.isEmpty()) block = true; else sleeping.set(false);
            }
            // GETEVENTS always: with DEFER_TASKRUN, completions become visible only when this thread asks.
            int nr = block ? waitNr() : 0, rc;
            if (nr > 1) {
                rc = LibUring.io_uring_enter2(rings.ringFd, rings.flushSq(), nr, IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
                        waitArg, LibUring.GETEVENTS_ARG_SIZE);
            } else {
                rc = LibUring.io_uring_enter(rings.ringFd, rings.flushSq(), block ? 1 : 0, IORING_ENTER_GETEVENTS, MemorySegment.NULL);
            }
            sleeping.set(false);
            if (rc < 0 && rc != -Errno.EINTR && rc != -Errno.EAGAIN && rc != -Errno.EBUSY && rc != -Errno.ETIME)
                throw new IllegalStateException("io_uring_enter: " + Errno.name(-rc));
            lastBatch = reap();
        }
    }

    /**
     * How many completions a blocking wait asks for. With DEFER_TASKRUN the kernel wakes this thread
     * only once that many are pending, and with a minimum wait (IORING_FEAT_MIN_TIMEOUT) it returns
     * after {@link #COALESCE_USEC} µs if at least one is. Each wake of this thread preempted the
     * scheduler thread whose write(2) caused it (SCHED_BATCH does not stop that on this kernel), one
     * context switch pair per packet under load (ADR 0039). So while the last wake found several
     * completions and many receives are in flight, the wait asks for a quarter of them (at most 16):
     * a busy ring is woken once per batch, at most {@link #COALESCE_USEC} µs late. A lone exchange
     * (the last wake found one completion) still wakes at its first completion, and so does every wait
     * while the owner's condition says no ({@code mayCoalesce}: the inet drivers coalesce only while
     * no scheduler thread is parked; a parked one means a CPU the woken ring thread can take without
     * preempting anyone, and work that a late completion would leave undone).
     */
    private int waitNr() {
        if (!minTimeout || lastBatch < 2 || inFlight < 8 || !mayCoalesce.getAsBoolean()) return 1;
        int nr = Math.min(inFlight / 4, 16);
        waitArg.fill((byte) 0);
        waitArg.set(java.lang.foreign.ValueLayout.JAVA_INT, LibUring.GETEVENTS_MIN_WAIT_USEC, COALESCE_USEC);
        MemorySegment ts = waitArg.asSlice(LibUring.GETEVENTS_ARG_SIZE, 16);
        ts.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 1L);                 // the wait for one completion: 1 s, then loop
        waitArg.set(java.lang.foreign.ValueLayout.JAVA_LONG, LibUring.GETEVENTS_TS, ts.address());
        return nr;
    }

    static final int COALESCE_USEC = Integer.getInteger("jbeam.inet.coalesceUsec", 20);

    /** A free SQE, submitting what is queued first if the SQ is full. */
    private MemorySegment sqe() {
        MemorySegment s = rings.getSqe();
        while (s == null) {
            rings.submitAndWait(0);
            s = rings.getSqe();
            if (s == null) Thread.onSpinWait();
        }
        return s;
    }

    /** Brings the kernel's poll for {@code k} in line with its wanted mask, or its release. */
    private void sync(Key k) {
        synchronized (k) { syncLocked(k); }
    }

    private void syncLocked(Key k) {
        if (k.released) {
            if (k.armed != 0 && !k.removeSent) {
                MemorySegment s = sqe();
                io_uring_prep_poll_remove(s, ud(k));
                io_uring_sqe_set_data64(s, TAG_IGNORE);
                k.removeSent = true;
            }
            if (k.recvArmed && !k.recvCancelSent) {
                MemorySegment s = sqe();
                io_uring_prep_cancel64(s, recvUd(k), 0);
                io_uring_sqe_set_data64(s, TAG_IGNORE);
                k.recvCancelSent = true;
            }
            // the completions (-ECANCELED or a result) of what is still in flight finish it
            if (k.armed == 0 && !k.recvArmed) finish(k);
            return;
        }
        if (k.recvWanted && !k.recvArmed) {
            if (k.slot < 0) k.slot = allocSlot(k);
            k.recvSeq++;
            k.multishot = k.msg == null && bufs != null;
            k.recvStopSent = false;
            MemorySegment s = sqe();
            if (k.msg != null) io_uring_prep_recvmsg(s, k.fd, k.msg, 0);
            else if (k.multishot) io_uring_prep_recv_multishot(s, k.fd, RecvBufferRing.BGID, 0);
            else {
                if (k.buf == null) k.buf = keyBufs.take();
                io_uring_prep_recv(s, k.fd, k.buf, RECV_BUF, 0);
            }
            io_uring_sqe_set_data64(s, recvUd(k));
            k.recvArmed = true;
            inFlight++;
        } else if (!k.recvWanted && k.recvArmed && k.multishot && !k.recvStopSent) {
            // A multishot receive goes on until cancelled: a reader over its read-ahead limit stops it here
            // (what arrives before the cancel is still delivered).
            MemorySegment s = sqe();
            io_uring_prep_cancel64(s, recvUd(k), 0);
            io_uring_sqe_set_data64(s, TAG_IGNORE);
            k.recvStopSent = true;
        }
        int want = k.wanted;
        if (want == 0) return;
        if (k.armed == 0) {
            if (k.slot < 0) k.slot = allocSlot(k);
            k.seq++;
            MemorySegment s = sqe();
            io_uring_prep_poll_add(s, k.fd, want);
            io_uring_sqe_set_data64(s, ud(k));
            k.armed = want;
            inFlight++;
        } else if ((want & ~k.armed) != 0) {
            MemorySegment s = sqe();
            io_uring_prep_poll_update(s, ud(k), 0, want, IORING_POLL_UPDATE_EVENTS);
            io_uring_sqe_set_data64(s, TAG_IGNORE);
            k.armed = want;
        }
    }

    private void finish(Key k) {
        if (k.slot >= 0) { keys[k.slot] = null; free[freeTop++] = k.slot; k.slot = -1; }
        if (k.buf != null) { keyBufs.give(k.buf); k.buf = null; }   // no receive in flight now
        if (k.done) return;       // released on the caller's thread
        k.done = true;
        Runnable r = k.onReleased;
        if (r != null) {
            try { r.run(); } catch (RuntimeException e) { e.printStackTrace(); }
        }
    }

    private static long ud(Key k) { return TAG_POLL | ((long) (k.seq & 0xFFFFFF) << 32) | k.slot; }
    private static long recvUd(Key k) { return TAG_RECV | ((long) (k.recvSeq & 0xFFFFFF) << 32) | k.slot; }

    private int allocSlot(Key k) {
        int s;
        if (freeTop > 0) s = free[--freeTop];
        else {
            s = nextSlot++;
            if (s == keys.length) {
                keys = java.util.Arrays.copyOf(keys, s * 2);
                free = java.util.Arrays.copyOf(free, s * 2);
            }
        }
        keys[s] = k;
        return s;
    }

    /** Dispatches the completions in the CQ; returns how many there were. */
    private int reap() {
        int head = rings.cqHead(), tail = rings.cqTail();
        for (int i = head; i != tail; i++) {
            long ud = rings.cqeUserData(i);
            int res = rings.cqeRes(i);
            rings.cqAdvance(1);      // released before dispatch: a listener may arm new polls
            long tag = ud & (0xFFL << TAG_SHIFT);
            if (tag == TAG_WAKE) { wakeArmed = false; continue; }
            if (tag == TAG_RECV) {
                received((int) ud, (int) (ud >>> 32) & 0xFFFFFF, res, rings.cqeFlags(i));
                continue;
            }
            if (tag != TAG_POLL) continue;
            Key k = keys[(int) ud];
            if (k == null || ((ud >>> 32) & 0xFFFFFF) != (k.seq & 0xFFFFFF)) continue;   // stale
            synchronized (k) { k.armed = 0; }
            inFlight--;
            if (!k.released) {
                int ev = res >= 0 ? res : POLLERR | POLLHUP;
                if (res != -Errno.ECANCELED) {
                    try { k.listener.ready(ev); } catch (RuntimeException e) { e.printStackTrace(); }
                }
            }
            sync(k);
        }
        if (bufs != null) {
            bufs.publish();
            // keys whose multishot receive found no buffer: buffers are back now
            for (int i = 0; i < starved.size(); i++) sync(starved.get(i));
            starved.clear();
        }
        return tail - head;
    }

    /** A receive's completion: data, end of stream or an error for the key in {@code slot}. */
    private void received(int slot, int seq, int res, int flags) {
        boolean more = (flags & IoUringCqe.IORING_CQE_F_MORE) != 0;
        int bid = (flags & IoUringCqe.IORING_CQE_F_BUFFER) != 0 ? flags >>> IoUringCqe.IORING_CQE_BUFFER_SHIFT : -1;
        Key k = keys[slot];
        if (k == null || seq != (k.recvSeq & 0xFFFFFF)) {    // stale
            if (bid >= 0) bufs.give(bid);
            return;
        }
        if (!more) {
            synchronized (k) { k.recvArmed = false; }
            inFlight--;
        }
        if (res == -Errno.ENOBUFS && k.multishot) {
            // every provided buffer is in a completion not reaped yet: re-armed after this batch gives them back
            bufs.starved++;
            starved.add(k);
            return;
        }
        if (!k.released && res != -Errno.ECANCELED) {
            MemorySegment data = bid >= 0 ? bufs.buffer(bid) : k.msg != null ? k.msg : k.buf;
            try { k.listener.received(data, res, more); } catch (RuntimeException e) { e.printStackTrace(); }
        }
        if (bid >= 0) bufs.give(bid);
        if (!more) sync(k);
    }

    /** Null if socket polls on io_uring work here, else why not. */
    public static String unavailableReason() { return PollRingProbe.unavailableReason(); }
}
