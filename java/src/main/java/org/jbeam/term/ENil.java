package org.jbeam.term;

/** The empty list {@code []}. A singleton. */
public final class ENil extends EList {
    public static final ENil NIL = new ENil();
    private ENil() {}
    @Override public int typeOrder() { return ORDER_NIL; }
    @Override public boolean isNil() { return true; }
    @Override public boolean equals(Object o) { return o == this; }
    @Override public int hashCode() { return 0x6E696C; }
}
