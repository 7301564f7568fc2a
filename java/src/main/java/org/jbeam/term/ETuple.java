package org.jbeam.term;

import java.util.Arrays;

/** A tuple of any arity. The element array is never modified after construction. */
public final class ETuple extends Term {
    public static final ETuple EMPTY = new ETuple(new Term[0]);

    private final Term[] elems;
    private int hash; // lazily computed, 0 = not yet

    /** Takes ownership of {@code elems}: the caller must not modify it afterwards. */
    public ETuple(Term[] elems) { this.elems = elems; }

    public static ETuple of(Term... elems) { return elems.length == 0 ? EMPTY : new ETuple(elems); }

    public int arity() { return elems.length; }
    /** Zero-based element. */
    public Term get(int i) { return elems[i]; }
    /** Copy of the elements. */
    public Term[] toArray() { return elems.clone(); }
    /** The internal array, for read-only use by the runtime. */
    public Term[] elements() { return elems; }

    /** A copy with element {@code i} (zero-based) replaced. */
    public ETuple with(int i, Term v) {
        Term[] c = elems.clone();
        c[i] = v;
        return new ETuple(c);
    }

    @Override public int typeOrder() { return ORDER_TUPLE; }
    @Override public boolean isTuple() { return true; }
    @Override public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ETuple t) || t.elems.length != elems.length) return false;
        if (hash != 0 && t.hash != 0 && hash != t.hash) return false;
        return Arrays.equals(elems, t.elems);
    }
    @Override public int hashCode() {
        int h = hash;
        if (h == 0) { h = Arrays.hashCode(elems) * 31 + 7; if (h == 0) h = 1; hash = h; }
        return h;
    }
}
