package org.jbeam.file;

/**
 * Chooses, for writes of at least {@link #MIN} bytes to regular files, between the synchronous
 * write(2) on the scheduler thread and the ring (an io-wq worker does the copy while the scheduler
 * thread spins for the completion), by the latency each path has delivered lately (ADR 0049).
 *
 * <p>Why measured, not fixed: the synchronous write costs less CPU (no hand-off, ADR 0012), but
 * it makes the scheduler thread a CPU hog that the kernel preempts slice by slice whenever the
 * CPUs are contended (other programs, or this VM's own JIT compiler threads while it warms up),
 * while the io-wq worker that runs for ~16 µs and sleeps is scheduled at once. Which path delivers
 * a 64 KiB write sooner therefore depends on the machine's state at the time, and flips within
 * seconds (ADR 0044's measurements and this ADR's). ADR 0012's slow-write guard (a synchronous
 * write over 2 ms sends writes to the ring for a second) stays as the safety net for writes that
 * block in the kernel; this class additionally moves writes to the ring when they have been
 * faster there without any single slow write, and back when the synchronous path is faster.
 *
 * <p>How: writes are counted in epochs of {@link #EPOCH}; each epoch uses one path and adds
 * its writes' latency (nanoTime from the NIF's decision to the result) per KiB to that path's
 * running average (an exponentially weighted mean over epochs). The next epoch takes the cheaper
 * path, except that every {@link #EXPLORE_NEAR}th epoch (every {@link #EXPLORE_FAR}th when one
 * path costs more than twice the other) tries the other one so its figure stays current.
 * Statistics are plain fields updated without synchronization by whichever scheduler writes:
 * a lost update shifts an average slightly and costs nothing else; the decision is one volatile
 * read per write. Writes under {@link #MIN} bytes (log lines, small records) always stay
 * synchronous, as before: there the hand-off costs several times the copy and exploring the ring
 * would cost those workloads more than it could find.
 */
final class WriteChoice {
    private WriteChoice() {}

    /**
     * -Djbeam.io.adaptivewrite=true turns the choice on. Off by default: on a quiet machine the
     * 1 GiB write benchmark was 0.91 / 0.73 / 0.74 x erl with it off against 1.32 / 1.03 / 1.25 with
     * it on (alternating runs, load 1-2, session 10); the gain was only ever seen under load.
     * Off is the synchronous path (the slow-write guard aside), as before ADR 0049. Tests set it.
     */
    static volatile boolean ADAPTIVE = Boolean.getBoolean("jbeam.io.adaptivewrite");
    /** Smallest write the choice applies to (bytes). */
    static final int MIN = Integer.getInteger("jbeam.io.adaptivewrite.min", 16384);
    static final int EPOCH = 256;
    static final int EXPLORE_NEAR = 16, EXPLORE_FAR = 64;

    /** Average latency in ns per KiB of each path; 0 = not measured yet. */
    private static long syncCost, ringCost;
    /** Each path's sums and count since its figure was last updated. */
    private static long syncNs, syncBytes, ringNs, ringBytes;
    private static int syncCount, ringCount, epochs;
    private static volatile boolean useSync = true;
    /** Epochs decided for each path (-Djbeam.io.stats). */
    static long syncEpochs, ringEpochs;

    /** Whether a write of {@code bytes} should be synchronous (the other checks done by the caller). */
    static boolean sync(long bytes) {
        return !ADAPTIVE || bytes < MIN || useSync;
    }

    /** Whether a write of this size is measured at all. */
    static boolean measured(long bytes) { return ADAPTIVE && bytes >= MIN; }

    /**
     * One write's latency on the path it took ({@code wasSync}). Writes that took the path the
     * current epoch did not choose (the slow-write guard's second sends them to the ring) count
     * towards that path's figure; the epoch ends when its own path has {@link #EPOCH} writes.
     */
    static void record(boolean wasSync, long ns, long bytes) {
        long c;
        if (wasSync) {
            syncNs += ns; syncBytes += bytes;
            if (++syncCount < EPOCH) return;
            c = syncNs * 1024 / Math.max(syncBytes, 1);
            syncNs = syncBytes = 0; syncCount = 0;
            syncCost = fold(syncCost, c);
        } else {
            ringNs += ns; ringBytes += bytes;
            if (++ringCount < EPOCH) return;
            c = ringNs * 1024 / Math.max(ringBytes, 1);
            ringNs = ringBytes = 0; ringCount = 0;
            ringCost = fold(ringCost, c);
        }
        if (wasSync != useSync) return;     // the guard's writes: a figure, not the end of an epoch
        if (wasSync) syncEpochs++; else ringEpochs++;
        epochs++;
        useSync = decide(syncCost, ringCost, epochs);
    }

    /** The next epoch's path: the cheaper one, an unmeasured one first, the other one now and then. */
    static boolean decide(long sync, long ring, int epoch) {
        if (sync == 0) return true;
        if (ring == 0) return false;
        boolean best = sync <= ring;
        long hi = Math.max(sync, ring), lo = Math.min(sync, ring);
        int every = hi > 2 * lo ? EXPLORE_FAR : EXPLORE_NEAR;
        return epoch % every == 0 ? !best : best;
    }

    /** Running average: a quarter of the new figure, three quarters of the old. */
    private static long fold(long avg, long c) { return avg == 0 ? c : (3 * avg + c) / 4; }

    /** Tests: forget what was measured (start synchronous again). */
    static void reset() {
        syncCost = ringCost = syncNs = syncBytes = ringNs = ringBytes = 0;
        syncCount = ringCount = epochs = 0;
        useSync = true;
    }

    static String stats() {
        return "adaptive writes: " + syncEpochs + " synchronous / " + ringEpochs + " ring epochs of " + EPOCH
                + ", last ns per KiB sync " + syncCost + " ring " + ringCost;
    }
}
