package org.jbeam.file;

import java.util.concurrent.atomic.LongAdder;

/**
 * When synchronous file writes leave the scheduler thread (ADR 0012's guard, revised by ADR 0067).
 * A synchronous write taking more than {@code -Djbeam.io.syncwrite.slow} µs (default 2000) of
 * wall time is "slow"; a slow write within {@code -Djbeam.io.syncwrite.window} ms (default 100)
 * of the previous slow one trips the guard, and for the next second every write goes to the ring
 * (an io-wq worker), after which the synchronous path is tried again.
 *
 * <p>Why wall time: a write that blocks in the kernel (writeback throttling, journal waits) and a
 * write whose thread is preempted both stall the scheduler, and under sustained CPU contention the
 * io-wq hand-off delivers writes sooner than a scheduler thread the kernel treats as a CPU hog
 * (ADR 0044). Why two: on an idle machine the single slow writes were neither, measured with
 * {@code getrusage(RUSAGE_THREAD)} around each write (ADR 0067): none had slept in the kernel
 * (no voluntary switch); they were the first write of the VM (linking the write downcall, 8-11
 * ms of user time) and single preemptions by the VM's own compiler threads, about one a second.
 * Each sent the next second's writes to the ring, where a 64 KiB write costs more than twice the
 * synchronous one, and the first synchronous write after that second was often the next slow one.
 * Sustained contention or throttling makes slow writes milliseconds apart, so it still trips.
 *
 * <p>State is VM-wide and unsynchronized beyond the volatiles: two schedulers racing on a slow
 * write can at worst trip one write earlier or later.
 */
final class SlowWriteGuard {
    private SlowWriteGuard() {}

    static final long SLOW_NANOS = Long.getLong("jbeam.io.syncwrite.slow", 2000) * 1000;
    static final long WINDOW_NANOS = Long.getLong("jbeam.io.syncwrite.window", 100) * 1_000_000;
    static final long OFF_NANOS = 1_000_000_000L;

    /** nanoTime before which writes avoid the scheduler thread. */
    private static volatile long offUntil = System.nanoTime();
    /** nanoTime at the end of the last slow write; far in the past when there was none. */
    private static volatile long lastSlow = System.nanoTime() - 2 * WINDOW_NANOS - 1;

    /** Slow synchronous writes, and how many of them tripped the guard (-Djbeam.io.stats). */
    static final LongAdder SLOW = new LongAdder(), TRIPS = new LongAdder();

    /** Whether a write starting at {@code now} may be synchronous. */
    static boolean allows(long now) { return now - offUntil >= 0; }

    /** Records a synchronous write that ran from {@code t0} to {@code t}; true if it tripped the guard. */
    static boolean observe(long t0, long t) {
        if (t - t0 <= SLOW_NANOS) return false;
        SLOW.increment();
        long prev = lastSlow;
        lastSlow = t;
        if (t - prev > WINDOW_NANOS) return false;
        offUntil = t + OFF_NANOS;
        TRIPS.increment();
        return true;
    }

    /** Tests: forget earlier slow writes (the guard is VM-wide, and a loaded machine trips it). */
    static void clear() {
        long now = System.nanoTime();
        offUntil = now;
        lastSlow = now - 2 * WINDOW_NANOS - 1;
    }

    static String stats() { return SLOW.sum() + " slow synchronous writes (" + TRIPS.sum() + " tripped the guard)"; }
}
