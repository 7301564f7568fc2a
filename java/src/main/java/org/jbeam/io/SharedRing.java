package org.jbeam.io;

/**
 * The JVM-wide completion ring the runtime's file operations use (opened on first use with the
 * backend {@code -Djbeam.io} selects, never closed: its threads are daemons). One ring serves
 * every scheduler: ADR 0005 records why a reaper-thread ring rather than a ring per scheduler.
 */
public final class SharedRing {
    private SharedRing() {}

    private static volatile CompletionRing ring;

    public static CompletionRing get() {
        CompletionRing r = ring;
        if (r == null) {
            synchronized (SharedRing.class) {
                r = ring;
                if (r == null) ring = r = Backends.open(256, IoUringRing.Mode.valueOf(System.getProperty("jbeam.io.mode", "HYBRID")));
            }
        }
        return r;
    }

    /**
     * Tests only: makes {@code r} the shared ring (null: open one again on next use) and returns the
     * previous one, so one JVM can run the natives on both backends. Not for a running VM.
     */
    public static synchronized CompletionRing replaceForTests(CompletionRing r) {
        CompletionRing old = ring;
        ring = r;
        return old;
    }

    /** "io_uring" or "threads" (erlang:system_info({jbeam, io_backend})). */
    public static String backendName() { return get().backendName(); }
}
