package org.jbeam.file;

import java.util.concurrent.atomic.LongAdder;

/**
 * When synchronous file writes leave the scheduler thread (ADR 0012's guard, revised by ADR 0067).
 * A synchronous write taking more than {@code -Djbeam.io.syncwrite.slow} µs (default 2000) of
 * wall time is "slow" and its duration counts as a stall. Once the stalls within
 * {@code -Djbeam.io.syncwrite.window} ms (default 100, counted from the first slow write of the
 * window) add up to {@code -Djbeam.io.syncwrite.stall} ms (default 25: a quarter of the window),
 * the guard trips and for a while every write goes to the ring (an io-wq worker), after which the
 * synchronous path is tried again. The while is {@code -Djbeam.io.syncwrite.off} ms (default 100)
 * and doubles, up to a second, each time the guard trips again within a second of the synchronous
 * path coming back: a burst of contention (the VM's own JIT compiling during warm-up) costs a
 * tenth of a second of ring writes, sustained contention or throttling soon costs a second at a
 * time as before (ADR 0067's revision).
 *
 * <p>Why wall time: a write that blocks in the kernel (writeback throttling, journal waits) and a
 * write whose thread is preempted both stall the scheduler, and under sustained CPU contention the
 * io-wq hand-off delivers writes sooner than a scheduler thread the kernel treats as a CPU hog
 * (ADR 0044). Why a share of the window rather than one slow write: on an idle machine the slow
 * writes were neither, measured with {@code getrusage(RUSAGE_THREAD)} around each write (ADR 0067):
 * none had slept in the kernel; they were the first write of the VM (linking the write downcall)
 * and preemptions of one or two scheduler ticks (4 or 8 ms) by the VM's own threads, alone or in
 * pairs. Each tripped the old guard and sent a second of writes to the ring, where a 64 KiB write
 * costs more than twice the synchronous one. Sustained contention or throttling stalls the writer
 * most of the time, so it still trips within a few writes; one long stall (25 ms) trips at once.
 *
 * <p>State is VM-wide and unsynchronized beyond the volatiles: two schedulers racing on a slow
 * write can at worst lose one stall from the sum.
 */
final class SlowWriteGuard {
    private SlowWriteGuard() {}

    static final long SLOW_NANOS = Long.getLong("jbeam.io.syncwrite.slow", 2000) * 1000;
    static final long WINDOW_NANOS = Long.getLong("jbeam.io.syncwrite.window", 100) * 1_000_000;
    static final long STALL_NANOS = Long.getLong("jbeam.io.syncwrite.stall", 25) * 1_000_000;
    /** -Djbeam.io.syncwrite.trace: prints each slow write and each trip (how ADRs 0067 and 0061 found their causes). */
    private static final boolean TRACE = Boolean.getBoolean("jbeam.io.syncwrite.trace");
    static final long OFF_MIN_NANOS = Long.getLong("jbeam.io.syncwrite.off", 100) * 1_000_000;
    static final long OFF_MAX_NANOS = Math.max(OFF_MIN_NANOS, 1_000_000_000L);

    /** nanoTime before which writes avoid the scheduler thread (long past: no trip yet). */
    private static volatile long offUntil = System.nanoTime() - 2 * OFF_MAX_NANOS;
    /** How long the last trip sent writes to the ring. */
    private static long offNanos = OFF_MIN_NANOS;
    /** Start of the current window (the first slow write's start) and the stalls summed in it. */
    private static long windowStart = System.nanoTime() - 2 * WINDOW_NANOS, stalled;

    /** Slow synchronous writes, and how many of them tripped the guard (-Djbeam.io.stats). */
    static final LongAdder SLOW = new LongAdder(), TRIPS = new LongAdder();

    /** Whether a write starting at {@code now} may be synchronous. */
    static boolean allows(long now) { return now - offUntil >= 0; }

    /** Records a synchronous write that ran from {@code t0} to {@code t}; true if it tripped the guard. */
    static boolean observe(long t0, long t) {
        long d = t - t0;
        if (d <= SLOW_NANOS) return false;
        SLOW.increment();
        if (t0 - windowStart > WINDOW_NANOS) { windowStart = t0; stalled = 0; }
        stalled += d;
        if (TRACE) System.err.printf("jbeam: slow write %.2f ms, %.2f ms of stalls in %.1f ms%n", d / 1e6, stalled / 1e6, (t - windowStart) / 1e6);
        if (stalled < STALL_NANOS) return false;
        // A trip soon after the last one ended: the cause persists, stay off longer.
        offNanos = t - offUntil < OFF_MAX_NANOS ? Math.min(2 * offNanos, OFF_MAX_NANOS) : OFF_MIN_NANOS;
        offUntil = t + offNanos;
        if (TRACE) System.err.printf("jbeam: slow-write guard tripped, writes on the ring for %d ms%n", offNanos / 1_000_000);
        windowStart = t - 2 * WINDOW_NANOS;
        stalled = 0;
        TRIPS.increment();
        return true;
    }

    /** Tests: forget earlier slow writes (the guard is VM-wide, and a loaded machine trips it). */
    static void clear() {
        long now = System.nanoTime();
        offUntil = now - 2 * OFF_MAX_NANOS;
        offNanos = OFF_MIN_NANOS;
        windowStart = now - 2 * WINDOW_NANOS;
        stalled = 0;
    }

    static String stats() { return SLOW.sum() + " slow synchronous writes (" + TRIPS.sum() + " tripped the guard)"; }
}
