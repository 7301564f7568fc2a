package org.jbeam.trace;

import org.jbeam.term.Term;

/**
 * A traced process's flags and tracer (a local pid, or a port that takes the trace messages in the
 * external format). Immutable: {@code erlang:trace/3} replaces a process's state as a whole, so a
 * tracee reading its own field sees a matching pair without locking.
 */
public record TraceState(int flags, Term tracer) {
    public boolean has(int flag) { return (flags & flag) != 0; }
}
