package org.jbeam.term;

import java.math.BigInteger;

/** An integer outside the long range. Always normalised: construct via {@link EInteger#of(BigInteger)}. */
public final class EBig extends EInteger {
    public final BigInteger value;

    EBig(BigInteger v) { this.value = v; }

    @Override public BigInteger bigValue() { return value; }
    @Override public double doubleValue() { return value.doubleValue(); }
    @Override public int signum() { return value.signum(); }
    @Override public boolean equals(Object o) { return o instanceof EBig b && b.value.equals(value); }
    @Override public int hashCode() { return value.hashCode(); }
}
