package org.jbeam.term;

import java.math.BigInteger;

/** An integer that fits in a Java long. Values in [-256, 1023] are cached. */
public final class ESmall extends EInteger {
    private static final int CACHE_LOW = -256, CACHE_HIGH = 1023;
    private static final ESmall[] CACHE = new ESmall[CACHE_HIGH - CACHE_LOW + 1];
    static { for (int i = 0; i < CACHE.length; i++) CACHE[i] = new ESmall(i + CACHE_LOW); }

    public static final ESmall ZERO = of(0), ONE = of(1), MINUS_ONE = of(-1);

    public final long value;

    private ESmall(long v) { this.value = v; }

    /**
     * One range test on the offset (negative or past the end: the sign bit of either side): 34
     * bytes of bytecode, under HotSpot's MaxInlineSize of 35, so C1 and C2 inline it at every
     * call site, also where the call is not frequent (the two-compare form was 36 bytes, and C2
     * left it a call in the bytecode tier's +/- helpers: PrintInlining "too big", ADR 0050).
     */
    public static ESmall of(long v) {
        long i = v - CACHE_LOW;
        if ((i | (CACHE_HIGH - CACHE_LOW - i)) >= 0) return CACHE[(int) i];
        return new ESmall(v);
    }

    @Override public BigInteger bigValue() { return BigInteger.valueOf(value); }
    @Override public double doubleValue() { return (double) value; }
    @Override public int signum() { return Long.signum(value); }
    @Override public boolean equals(Object o) { return o instanceof ESmall s && s.value == value; }
    @Override public int hashCode() { return Long.hashCode(value); }
}
