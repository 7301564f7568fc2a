package org.jbeam.term;

/** A port identifier, printed {@code #Port<0.N>}. {@code port} is the runtime's port object while open. */
public final class EPort extends Term {
    public final EAtom node;
    public final long id;
    public final int creation;
    public volatile Object port;

    public EPort(EAtom node, long id, int creation) { this.node = node; this.id = id; this.creation = creation; }

    @Override public int typeOrder() { return ORDER_PORT; }
    @Override public boolean isPort() { return true; }
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof EPort p && p.id == id && p.creation == creation && p.node == node);
    }
    @Override public int hashCode() { return Long.hashCode(id) * 17; }
}
