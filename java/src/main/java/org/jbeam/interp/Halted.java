package org.jbeam.interp;

/** Thrown by erlang:halt to stop the calling process on the spot; the node is going down. */
public final class Halted extends RuntimeException {
    public Halted() { super(null, null, false, false); }
}
