package org.jbeam.interp;

import org.jbeam.term.EAtom;
import org.jbeam.term.Term;

/**
 * The "raw stack trace" an exception handler receives in x2 (as in BEAM): it carries the class
 * too, so {@code raise} can re-throw with the original class. {@code build_stacktrace} turns it
 * into the Erlang list.
 */
public final class RawStack extends Term {
    public final EAtom cls;
    public final Term stacktrace;

    public RawStack(EAtom cls, Term stacktrace) { this.cls = cls; this.stacktrace = stacktrace; }

    @Override public int typeOrder() { throw new IllegalStateException("raw stack trace used as a term"); }
}
