package org.jbeam.term;

/** A list: the empty list {@link ENil} or a cons cell {@link ECons}. */
public abstract sealed class EList extends Term permits ECons, ENil {
    @Override public final boolean isList() { return true; }
}
