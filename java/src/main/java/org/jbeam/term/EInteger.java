package org.jbeam.term;

import java.math.BigInteger;

/** An Erlang integer: {@link ESmall} when it fits a long, {@link EBig} otherwise. */
public abstract sealed class EInteger extends ENumber permits ESmall, EBig {
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE), LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    public static EInteger of(long v) { return ESmall.of(v); }

    public static EInteger of(BigInteger v) {
        if (v.bitLength() < 64) return ESmall.of(v.longValue());
        return new EBig(v);
    }

    public abstract BigInteger bigValue();
    public abstract int signum();

    /** True when the value fits a long (always the case for ESmall). */
    public final boolean isSmall() { return this instanceof ESmall; }

    @Override public boolean isInteger() { return true; }

    static boolean fitsLong(BigInteger v) { return v.compareTo(LONG_MIN) >= 0 && v.compareTo(LONG_MAX) <= 0; }
}
