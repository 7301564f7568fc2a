package org.jbeam.trace;

import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.term.*;

/**
 * A function's call_time counters (trace_pattern(MFA, true, [call_time]), what eprof reads): per
 * call-traced process, the calls and the time spent in the function itself. Time runs for the
 * function a process most recently entered (or returned to) among the call_time-traced ones, and
 * stops while the process is scheduled out, as erts' call_time breakpoints measure it; a callee
 * without call_time counts as its caller's time.
 */
public final class CallTime {
    /** Per process: {calls, nanoseconds}. Written only by the process itself (one thread at a time). */
    private final ConcurrentHashMap<EPid, long[]> perProcess = new ConcurrentHashMap<>();
    volatile boolean paused;

    private long[] slot(EPid p) { return perProcess.computeIfAbsent(p, k -> new long[2]); }

    public void called(EPid p) { if (!paused) slot(p)[0]++; }

    public void spent(EPid p, long nanos) { if (!paused && nanos > 0) slot(p)[1] += nanos; }

    void restart() { perProcess.clear(); paused = false; }

    /** trace_info's list: [{Pid, Count, Seconds, Microseconds}]. */
    Term info() {
        EList l = ENil.NIL;
        for (var e : perProcess.entrySet()) {
            long us = e.getValue()[1] / 1000;
            l = new ECons(ETuple.of(e.getKey(), ESmall.of(e.getValue()[0]), ESmall.of(us / 1_000_000), ESmall.of(us % 1_000_000)), l);
        }
        return l;
    }

    /** A process's clock: the call_time function its time goes to now (null: none) and since when. */
    public static final class Clock {
        public CallTime current;
        public long since;

        /** Charges the time since the last switch to the current function and makes {@code next} current. */
        public void switchTo(EPid p, CallTime next, long now) {
            if (current != null) current.spent(p, now - since);
            current = next;
            since = now;
        }

        /** The process is being scheduled out: its function's time stops. */
        public void out(EPid p) { switchTo(p, current, System.nanoTime()); }

        /** The process is scheduled in again: time runs from now. */
        public void in() { since = System.nanoTime(); }
    }

    /**
     * The stack entry under a call_time return frame: the function the caller's time went to, to
     * make current again when the callee returns (null: none).
     */
    public static final class Mark extends Term {
        public final CallTime previous;

        public Mark(CallTime previous) { this.previous = previous; }

        @Override public int typeOrder() { return ORDER_TUPLE; }
    }
}
