package org.jbeam.loader;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Debugging aid ({@code -Djbeam.load.stats=true}): wall time spent in each phase of loading a
 * module, summed over the run and printed at exit, with the number of modules and code bytes. It
 * answers "where does start-up go?" (most of a fresh VM's boot is loading, ADR 0024). Off, each
 * probe is a constant false check.
 */
public final class LoadStats {
    private LoadStats() {}

    public static final boolean ENABLED = Boolean.getBoolean("jbeam.load.stats");
    public enum Phase { PARSE, TRANSFORM, MD5, ATTRIBUTES }
    private static final AtomicLongArray NANOS = new AtomicLongArray(Phase.values().length);
    private static final AtomicLongArray COUNT = new AtomicLongArray(Phase.values().length);

    static {
        if (ENABLED) Runtime.getRuntime().addShutdownHook(new Thread(LoadStats::report));
    }

    /** A timestamp to pass to {@link #add} (0 when disabled, so callers need no check). */
    public static long start() { return ENABLED ? System.nanoTime() : 0; }

    public static void add(Phase p, long start) {
        if (!ENABLED) return;
        NANOS.addAndGet(p.ordinal(), System.nanoTime() - start);
        COUNT.incrementAndGet(p.ordinal());
    }

    private static void report() {
        for (Phase p : Phase.values())
            System.err.printf("load %-10s %5d calls %8.1f ms%n", p.name().toLowerCase(), COUNT.get(p.ordinal()),
                    NANOS.get(p.ordinal()) / 1e6);
    }
}
