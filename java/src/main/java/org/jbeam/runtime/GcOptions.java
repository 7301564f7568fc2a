package org.jbeam.runtime;

import org.jbeam.term.EAtom;
import org.jbeam.term.EMap;
import org.jbeam.term.ESmall;
import org.jbeam.term.Term;

/**
 * A process's garbage-collection settings, as set by spawn_opt/process_flag and read back by
 * process_info. jbeam's processes live on the one JVM heap, so these steer nothing; they are kept
 * because OTP programs and libraries read back what they set, rounded the way erts rounds heap
 * sizes (erts_next_heap_size). Immutable: a process holds the shared {@link #DEFAULT} until it
 * changes a setting.
 */
public final class GcOptions {
    /** erts' H_MIN_SIZE and default bin_vheap size (words), and its default fullsweep_after. */
    public static final GcOptions DEFAULT = new GcOptions(233, 46422, 65535, 0, true, true);

    public final long minHeapSize, minBinVheapSize, fullsweepAfter, maxHeapSize;
    public final boolean maxHeapKill, maxHeapErrorLogger;

    private GcOptions(long minHeap, long minBinVheap, long fullsweep, long maxHeap, boolean kill, boolean log) {
        minHeapSize = minHeap; minBinVheapSize = minBinVheap; fullsweepAfter = fullsweep;
        maxHeapSize = maxHeap; maxHeapKill = kill; maxHeapErrorLogger = log;
    }

    public GcOptions withMinHeapSize(long words) {
        return new GcOptions(Math.max(233, heapSize(words)), minBinVheapSize, fullsweepAfter, maxHeapSize, maxHeapKill, maxHeapErrorLogger);
    }
    public GcOptions withMinBinVheapSize(long words) {
        return new GcOptions(minHeapSize, Math.max(46422, heapSize(words)), fullsweepAfter, maxHeapSize, maxHeapKill, maxHeapErrorLogger);
    }
    public GcOptions withFullsweepAfter(long n) {
        return new GcOptions(minHeapSize, minBinVheapSize, n, maxHeapSize, maxHeapKill, maxHeapErrorLogger);
    }

    /**
     * {@code max_heap_size} given as a size or as a map of size/kill/error_logger (OTP 25), or null
     * when OTP raises badarg: an unknown key, a bad value, or a non-zero size below the minimum heap.
     */
    public GcOptions withMaxHeapSize(Term v) {
        long size = maxHeapSize;
        boolean kill = maxHeapKill, log = maxHeapErrorLogger;
        if (v instanceof ESmall s) size = s.value;
        else if (v instanceof EMap m) {
            // size is required; kill and error_logger left out take their defaults, not the current values
            if (!(m.get(SIZE) instanceof ESmall)) return null;
            kill = true; log = true;
            for (int i = 0; i < m.size(); i++) {
                Term k = m.keyAt(i), val = m.valueAt(i);
                if (k == SIZE && val instanceof ESmall s) size = s.value;
                else if (k == KILL && (val == EAtom.TRUE || val == EAtom.FALSE)) kill = val == EAtom.TRUE;
                else if (k == ERROR_LOGGER && (val == EAtom.TRUE || val == EAtom.FALSE)) log = val == EAtom.TRUE;
                else return null;
            }
        } else return null;
        if (size < 0 || (size != 0 && size < minHeapSize)) return null;
        return new GcOptions(minHeapSize, minBinVheapSize, fullsweepAfter, size, kill, log);
    }

    private static final EAtom SIZE = EAtom.of("size"), KILL = EAtom.of("kill"), ERROR_LOGGER = EAtom.of("error_logger");

    /** {@code #{error_logger => B, kill => B, size => N}}, as process_info and process_flag show it. */
    public Term maxHeapSizeTerm() {
        return EMap.of(new Term[] {ERROR_LOGGER, KILL, SIZE},
                new Term[] {EAtom.of(maxHeapErrorLogger), EAtom.of(maxHeapKill), ESmall.of(maxHeapSize)});
    }

    /**
     * The smallest erts heap size of at least {@code words}: 12, 38, then each the sum of the two
     * before plus one (233, 376, 610, 987, 1598, …) for 23 steps, then 20% growth.
     */
    public static long heapSize(long words) {
        long a = 12, b = 38;
        if (words <= a) return a;
        for (int i = 1; ; i++) {
            if (words <= b) return b;
            long next = i < 22 ? a + b + 1 : b + b / 5;
            a = b; b = next;
        }
    }
}
