package org.jbeam.term;

/**
 * Base of all Erlang terms. {@link #equals(Object)} is exact equality ({@code =:=}) and
 * {@link #hashCode()} agrees with it; term order lives in {@link TermOrder}.
 */
public abstract class Term {
    /** OTP's type rank for term order: number &lt; atom &lt; reference &lt; fun &lt; port &lt; pid &lt; tuple &lt; map &lt; nil &lt; list &lt; bitstring. */
    public static final int ORDER_NUMBER = 0, ORDER_ATOM = 1, ORDER_REF = 2, ORDER_FUN = 3, ORDER_PORT = 4,
            ORDER_PID = 5, ORDER_TUPLE = 6, ORDER_MAP = 7, ORDER_NIL = 8, ORDER_LIST = 9, ORDER_BITSTRING = 10;

    protected Term() {}

    /** Rank of this term's type in OTP's term order (one of the ORDER_ constants). */
    public abstract int typeOrder();

    public boolean isNumber() { return false; }
    public boolean isInteger() { return false; }
    public boolean isAtom() { return false; }
    public boolean isList() { return false; }   // cons or nil
    public boolean isNil() { return false; }
    public boolean isCons() { return false; }
    public boolean isTuple() { return false; }
    public boolean isBinary() { return false; }
    public boolean isBitString() { return false; }
    public boolean isMap() { return false; }
    public boolean isPid() { return false; }
    public boolean isPort() { return false; }
    public boolean isRef() { return false; }
    public boolean isFun() { return false; }
    public boolean isFloat() { return false; }

    /** OTP's printed form, as {@code io:format("~w")} would print it (best effort for terms jbeam prints itself). */
    @Override public String toString() { return TermPrinter.print(this); }
}
