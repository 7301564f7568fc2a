package org.jbeam.trace;

import org.jbeam.term.EPid;

/**
 * A traced process's flags and tracer. Immutable: {@code erlang:trace/3} replaces a process's state
 * as a whole, so a tracee reading its own field sees a matching pair without locking.
 */
public record TraceState(int flags, EPid tracer) {
    public boolean has(int flag) { return (flags & flag) != 0; }
}
