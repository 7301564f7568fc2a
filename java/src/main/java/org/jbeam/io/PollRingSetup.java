package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.liburing.IoUringParams;

import static org.jbeam.bindings.liburing.LibUring.io_uring_queue_init_params;
import static org.jbeam.io.PollRing.COALESCE_USEC;

/**
 * How the socket ring ({@link PollRing}) is set up, once, on its own thread before its loop starts:
 * io_uring_setup with the best flags the kernel takes, the provided-buffer ring of multishot receives,
 * whether waits can be coalesced, and the thread's scheduling policy. Split from PollRing, whose body
 * is what the ring thread does for every completion; {@link PollRingProbe} says whether the kernel
 * offers socket polls at all.
 */
final class PollRingSetup {
    private PollRingSetup() {}

    /** Multishot receives into a provided-buffer ring where the kernel has them (ADR 0062; -Djbeam.inet.multishot=false: one-shot receives into per-key buffers). */
    static final boolean MULTISHOT = !"false".equals(System.getProperty("jbeam.inet.multishot"));

    /**
     * What set-up gave: the accepted flags' name for the log line, the provided buffers of multishot
     * receives (null: each key receives into a buffer of its own), and whether the kernel takes a
     * minimum wait, so that waits may be coalesced (see {@link PollRing#waitNr}).
     */
    record Result(String flags, RecvBufferRing bufs, boolean minTimeout) {}

    /**
     * On the ring thread (SINGLE_ISSUER binds the ring to the task that sets it up): io_uring_setup of
     * {@code ring} with the best flags the kernel takes; throws if none is taken.
     */
    static Result setUp(MemorySegment ring, Arena arena, int entries) {
        MemorySegment params = arena.allocate(IoUringParams.LAYOUT);
        // Only the ring thread submits and waits: deferred task work fits (completions are run when it
        // asks for them); older kernels lack it, then COOP_TASKRUN, then plain.
        int[] tries = {IoUringParams.IORING_SETUP_SINGLE_ISSUER | IoUringParams.IORING_SETUP_DEFER_TASKRUN,
                IoUringParams.IORING_SETUP_COOP_TASKRUN, 0};
        String[] names = {"SINGLE_ISSUER|DEFER_TASKRUN", "COOP_TASKRUN", "plain"};
        if (Boolean.getBoolean("jbeam.inet.uringPlain")) { tries = new int[] {0}; names = new String[] {"plain"}; }
        int rc = -Errno.EINVAL, used = 0;
        for (int i = 0; i < tries.length && rc == -Errno.EINVAL; i++) {
            params.fill((byte) 0);
            IoUringParams.flags(params, tries[i] | IoUringParams.IORING_SETUP_CQSIZE);
            IoUringParams.cqEntries(params, entries * 8);
            rc = io_uring_queue_init_params(entries, ring, params);
            used = i;
        }
        if (rc < 0) throw new IllegalStateException("io_uring_queue_init_params: " + Errno.name(-rc));
        String multi = "";
        RecvBufferRing bufs = null;
        if (MULTISHOT && PollRingProbe.multishotSupported(ring, params)) {
            Object b = RecvBufferRing.register(ring, arena);
            if (b instanceof RecvBufferRing r) { bufs = r; multi = ", " + r.describe(); }
            else multi = ", no multishot receives (" + b + ")";
        }
        boolean minTimeout = COALESCE_USEC > 0 && (IoUringParams.features(params) & IoUringParams.IORING_FEAT_MIN_TIMEOUT) != 0
                && names[used].contains("DEFER_TASKRUN");
        return new Result(names[used] + (minTimeout ? ", coalesced waits " + COALESCE_USEC + " us" : "") + multi, bufs, minTimeout);
    }

    /**
     * The ring thread runs SCHED_BATCH (-Djbeam.inet.ringPolicy=batch, the default, or other): a batch
     * thread does not preempt the running thread when it is woken. Every packet written to a socket
     * whose receive or poll is armed wakes this thread from inside the writer's write(2); as a normal
     * thread it then preempted the writer (a scheduler thread) at the return from that syscall on a
     * busy machine, one context switch per packet, and ran one completion per wake. As a batch thread
     * it runs when a CPU is free (an idle one at once, a busy one at the writer's next sleep or tick)
     * and reaps the completions of many packets per wake (ADR 0033). Called on the ring thread.
     */
    static String schedPolicy() {
        String p = System.getProperty("jbeam.inet.ringPolicy", "batch");
        if (!p.equals("batch")) return "";
        int rc = Libc.schedSetSchedulerSelf(Libc.SCHED_BATCH);
        return rc == 0 ? ", SCHED_BATCH" : ", SCHED_BATCH refused: " + Errno.name(-rc);
    }

}
