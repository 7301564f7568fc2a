package org.jbeam.term;

/**
 * A process identifier. Printed {@code <0.Number.Serial>} for local pids. {@code process} points
 * at the runtime's process object while it lives (cleared when it exits so the GC can reclaim it);
 * the runtime stores it as an opaque Object to keep this package free of runtime types.
 */
public final class EPid extends Term {
    public final EAtom node;
    public final int number;
    public final int serial;
    public final int creation;
    /** The live process (runtime-owned), or null once exited or for remote pids. */
    public volatile Object process;

    public EPid(EAtom node, int number, int serial, int creation) {
        this.node = node; this.number = number; this.serial = serial; this.creation = creation;
    }

    @Override public int typeOrder() { return ORDER_PID; }
    @Override public boolean isPid() { return true; }
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof EPid p && p.number == number && p.serial == serial && p.creation == creation && p.node == node);
    }
    @Override public int hashCode() { return number * 31 + serial; }
}
