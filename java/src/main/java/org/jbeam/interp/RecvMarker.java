package org.jbeam.interp;

import org.jbeam.term.Term;

/** A receive marker (recv_marker_reserve): a position in the process's message queue. */
final class RecvMarker extends Term {
    final Object position;
    RecvMarker(Object position) { this.position = position; }
    @Override public int typeOrder() { throw new IllegalStateException("receive marker used as a term"); }
}
