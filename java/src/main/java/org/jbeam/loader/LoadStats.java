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
        if (ENABLED) org.jbeam.runtime.ExitHooks.add(LoadStats::report);
    }

    /** A timestamp to pass to {@link #add} (0 when disabled, so callers need no check). */
    public static long start() { return ENABLED ? System.nanoTime() : 0; }

    public static void add(Phase p, long start) {
        if (!ENABLED) return;
        NANOS.addAndGet(p.ordinal(), System.nanoTime() - start);
        COUNT.incrementAndGet(p.ordinal());
    }

    /** Boot milestones (name, ms since the JVM started), printed with the phase sums. */
    private static final java.util.List<String> MARKS = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    /** Records a boot milestone: where a launch's wall time goes, phase by phase. */
    public static void mark(String what) {
        if (!ENABLED) return;
        if (what.equals("halt")) threadCpu();
        long ms = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
        MARKS.add(String.format("at %6d ms: %s (cpu %d ms)", ms, what,
                ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(-1L)));
    }

    private static void report() {
        mark("exit");
        for (String m : MARKS) System.err.println(m);
        for (Phase p : Phase.values())
            System.err.printf("load %-10s %5d calls %8.1f ms%n", p.name().toLowerCase(), COUNT.get(p.ordinal()),
                    NANOS.get(p.ordinal()) / 1e6);
    }

    /** CPU time of each live thread (the JIT's compiler threads included), from /proc: user+sys ms by name. */
    private static void threadCpu() {
        var byName = new java.util.TreeMap<String, Long>();
        try (var ts = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
            for (var t : (Iterable<java.nio.file.Path>) ts::iterator) {
                try {
                    String comm = java.nio.file.Files.readString(t.resolve("comm")).trim().replaceAll("[0-9]+$", "#");
                    String stat = java.nio.file.Files.readString(t.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
                    byName.merge(comm, ticks * 10, Long::sum);
                } catch (java.io.IOException | RuntimeException e) {
                    // a thread that ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            return;
        }
        byName.forEach((n, ms) -> { if (ms > 0) System.err.printf("cpu %-24s %5d ms%n", n, ms); });
    }
}
