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
}
