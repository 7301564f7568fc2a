package org.jbeam.trace;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What erlang:trace_pattern/3 set on one function: a global or a local trace pattern (exclusive,
 * as erts' global and local breakpoints are) and a call counter. Kept on the function's FuncInfo
 * and, when the function is exported, on its export entry, where the call paths read it.
 */
public final class FunctionTrace {
    /** Traces calls through the export only. */
    public volatile CallPattern global;
    /** Traces local and external calls. */
    public volatile CallPattern local;
    /** call_count: null when off. */
    public volatile Counter counter;
    /** call_time: null when off. */
    public volatile CallTime time;

    /** A call_count counter; paused counters keep their count. */
    public static final class Counter {
        final AtomicLong calls = new AtomicLong();
        volatile boolean paused;

        public void hit() { if (!paused) calls.incrementAndGet(); }
        public long value() { return calls.get(); }
    }

    /** The pattern that traces a call arriving through the export. */
    public CallPattern external() {
        CallPattern g = global;
        return g != null ? g : local;
    }

    public boolean isEmpty() { return global == null && local == null && counter == null && time == null; }

    /** Whether local calls must pass the function's trace_entry instruction. */
    public boolean needsLocalCalls() { return local != null || counter != null || time != null; }
}
