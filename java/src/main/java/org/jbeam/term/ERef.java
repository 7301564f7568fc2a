package org.jbeam.term;

import java.util.Arrays;

/** A reference: node, creation and up to five 32-bit id words (OTP prints {@code #Ref<0.W2.W1.W0>}). */
public class ERef extends Term {
    public final EAtom node;
    public final int creation;
    /** Id words, least significant first (as in the external term format's NEWER_REFERENCE). */
    private final int[] ids;

    public ERef(EAtom node, int creation, int[] ids) { this.node = node; this.creation = creation; this.ids = ids; }

    /**
     * Called when this reference is copied out by value (external term format, ref_to_list), after
     * which an equal but distinct ERef may come back. A subclass that attaches state to the object
     * (the timer of an erlang:start_timer reference) registers it by value here.
     */
    public void copiedOut() {}

    public int[] ids() { return ids.clone(); }
    public int idCount() { return ids.length; }
    public int id(int i) { return ids[i]; }

    @Override public int typeOrder() { return ORDER_REF; }
    @Override public boolean isRef() { return true; }
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof ERef r && r.creation == creation && r.node == node && Arrays.equals(r.ids, ids));
    }
    @Override public int hashCode() { return Arrays.hashCode(ids); }

    /*
     * equals is inlined wherever a compiled receive compares references (gen:do_call/4's match of
     * the reply's monitor reference), with this method's one profile. Filled by the workload
     * alone, "o == this" had always been true there (the reply carries the very object), C2
     * compiled the other outcome as a trap, and the first comparison with another reference threw
     * the compiled caller away (JFR "unstable_if" at this line, ADR 0043). Every outcome here,
     * recurring throughout the loop (the JVM records a profile only from some hundred calls on),
     * once per JVM: a few milliseconds.
     */
    static {
        ERef[] rs = {new ERef(EAtom.NONODE, 0, new int[] {1, 2, 3}), new ERef(EAtom.NONODE, 0, new int[] {1, 2, 3}),
                new ERef(EAtom.NONODE, 0, new int[] {1, 2, 4}), new ERef(EAtom.NONODE, 1, new int[] {1, 2, 3}),
                new ERef(EAtom.TRUE, 0, new int[] {1, 2, 3})};
        Object[] others = {rs[0], rs[1], rs[2], rs[3], rs[4], EAtom.NONODE};
        int sink = 0;
        for (int i = 0; i < 30_000; i++) if (rs[i % rs.length].equals(others[(i / rs.length) % others.length])) sink++;
        if (sink == 42) System.out.print("");
    }
}
