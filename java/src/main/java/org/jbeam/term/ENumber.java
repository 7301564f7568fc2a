package org.jbeam.term;

/** An Erlang number: integer or float. */
public abstract sealed class ENumber extends Term permits EInteger, EFloat {
    public abstract double doubleValue();
    @Override public final int typeOrder() { return ORDER_NUMBER; }
    @Override public final boolean isNumber() { return true; }
}
