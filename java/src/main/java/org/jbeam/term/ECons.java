package org.jbeam.term;

import java.util.List;

/** A cons cell {@code [Head | Tail]}; the tail may be any term (improper lists). */
public final class ECons extends EList {
    public final Term head;
    public final Term tail;

    public ECons(Term head, Term tail) { this.head = head; this.tail = tail; }

    @Override public int typeOrder() { return ORDER_LIST; }
    @Override public boolean isCons() { return true; }

    /** Builds a proper list from the given terms. */
    public static EList of(Term... items) {
        EList l = ENil.NIL;
        for (int i = items.length - 1; i >= 0; i--) l = new ECons(items[i], l);
        return l;
    }

    public static EList of(List<? extends Term> items) {
        EList l = ENil.NIL;
        for (int i = items.size() - 1; i >= 0; i--) l = new ECons(items.get(i), l);
        return l;
    }

    /** Length of a proper list, or -1 when {@code t} is not a proper list. */
    public static int length(Term t) {
        int n = 0;
        while (t instanceof ECons c) { n++; t = c.tail; }
        return t == ENil.NIL ? n : -1;
    }

    /** Elements of a proper list, or null when not a proper list. */
    public static Term[] toArray(Term t) {
        int n = length(t);
        if (n < 0) return null;
        Term[] a = new Term[n];
        for (int i = 0; i < n; i++) { ECons c = (ECons) t; a[i] = c.head; t = c.tail; }
        return a;
    }

    @Override public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ECons)) return false;
        Term a = this, b = (Term) o;
        while (a instanceof ECons ca && b instanceof ECons cb) {
            if (ca == cb) return true;
            if (!ca.head.equals(cb.head)) return false;
            a = ca.tail; b = cb.tail;
        }
        return a.equals(b);
    }

    @Override public int hashCode() {
        int h = 1;
        Term t = this;
        while (t instanceof ECons c) { h = 31 * h + c.head.hashCode(); t = c.tail; }
        return 31 * h + t.hashCode();
    }
}
