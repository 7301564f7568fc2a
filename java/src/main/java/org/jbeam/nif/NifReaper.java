package org.jbeam.nif;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.jbeam.runtime.ErlProcess;

/**
 * Makes resource destructors prompt (ADR 0018). A resource that only Java terms hold is released
 * by NifResources' release thread once a garbage collection has found its term unreachable
 * (ADR 0048); with little allocation that may be never, while erts releases a
 * dead process's resources when it exits. So each resource term a NIF returns is counted against
 * the calling process (its {@link Holder}); when a process exits still counted for live ones,
 * they become orphans: possibly unreachable now, possibly handed to someone else. While orphans
 * exist, every process exit (the creator's, and later whoever it handed them to) asks this thread
 * to force a collection (System.gc), after a short batching delay and at most once per
 * {@code jbeam.nif.reapIntervalMs} (1000 ms). A collection is also forced when the native bytes
 * of resources Java holds grow by {@code jbeam.nif.reapBytes} (64 MiB) since the last one: the
 * Java heap does not see native memory, so a long-lived process creating big resources would
 * otherwise grow without bound.
 */
public final class NifReaper {
    private NifReaper() {}

    private static final long INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(Long.getLong("jbeam.nif.reapIntervalMs", 1000));
    private static final long BATCH_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long BYTES = Long.getLong("jbeam.nif.reapBytes", 64L << 20);

    /** The live resource terms a process received from NIFs (counted until their release). */
    static final class Holder {
        private long live;
        private boolean exited;
    }

    private static final ConcurrentHashMap<ErlProcess, Holder> HOLDERS = new ConcurrentHashMap<>();
    private record Last(ErlProcess p, Holder h) {}
    private static volatile Last last = new Last(null, null);
    /** Live resource terms whose receiving process has exited. */
    private static final AtomicLong ORPHANS = new AtomicLong();
    /** Native bytes of resources referenced by live (not yet cleaned) ERefs, and that figure after the last forced collection. */
    private static final AtomicLong LIVE_BYTES = new AtomicLong();
    private static volatile long baseline;
    private static volatile boolean requested;
    private static volatile Thread thread;
    /** Collections forced so far (tests). */
    static final AtomicLong FORCED = new AtomicLong();

    /**
     * The holder record of {@code p}: null for none (Java callers, tests), and for a process that
     * already exited (a dirty call finishing after its caller died), whose record would never go.
     */
    static Holder holder(ErlProcess p) {
        if (p == null) return null;
        Last l = last;
        if (l.p == p) return l.h;
        if (!p.isAlive()) return null;
        Holder h = HOLDERS.computeIfAbsent(p, k -> new Holder());
        last = new Last(p, h);
        return h;
    }

    /** A new resource term of {@code bytes} native bytes, received by {@code h}'s process. */
    static void held(Holder h, long bytes) {
        if (h != null) synchronized (h) { h.live++; }
        if (LIVE_BYTES.addAndGet(bytes) - baseline > BYTES) request();
    }

    /** A resource term's reference was released (NifResources' release thread). */
    static void dropped(Holder h, long bytes) {
        LIVE_BYTES.addAndGet(-bytes);
        if (h != null) synchronized (h) {
            h.live--;
            if (h.exited) ORPHANS.decrementAndGet();
        }
    }

    /** A process exited (ProcessTable.exit): its live resource terms become orphans; while there are any, reap. */
    public static void processExited(ErlProcess p) {
        if (!HOLDERS.isEmpty()) {
            Holder h = HOLDERS.remove(p);
            if (h != null) {
                if (last.p == p) last = new Last(null, null);
                synchronized (h) {
                    h.exited = true;
                    ORPHANS.addAndGet(h.live);
                }
            }
        }
        if (ORPHANS.get() > 0) request();
    }

    /** Resource terms received by processes that have exited and not collected yet (tests). */
    static long orphans() { return ORPHANS.get(); }
    private static void request() {
        if (requested) return;
        requested = true;
        Thread t = thread;
        if (t == null) {
            synchronized (NifReaper.class) {
                if ((t = thread) == null) {
                    t = Thread.ofPlatform().daemon().name("jbeam-nif-reaper").start(NifReaper::loop);
                    thread = t;
                }
            }
        }
        LockSupport.unpark(t);
    }

    private static void loop() {
        long last = System.nanoTime() - INTERVAL_NS;
        while (true) {
            while (!requested) LockSupport.park();
            // Several processes often exit together: one collection for all of them.
            long wait = Math.max(BATCH_NS, last + INTERVAL_NS - System.nanoTime());
            long until = System.nanoTime() + wait;
            for (long left = wait; left > 0; left = until - System.nanoTime()) LockSupport.parkNanos(left);
            requested = false;
            System.gc();
            last = System.nanoTime();
            baseline = LIVE_BYTES.get();
            FORCED.incrementAndGet();
        }
    }
}
