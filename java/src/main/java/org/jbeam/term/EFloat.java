package org.jbeam.term;

/** An Erlang float (IEEE double; never NaN or infinite, as in OTP). */
public final class EFloat extends ENumber {
    public final double value;

    public EFloat(double v) { this.value = v; }

    public static EFloat of(double v) { return new EFloat(v); }

    @Override public double doubleValue() { return value; }
    @Override public boolean isFloat() { return true; }
    /** Exact equality. In OTP 25 {@code 0.0 =:= -0.0} is true (OTP 27 changed that). */
    @Override public boolean equals(Object o) { return o instanceof EFloat f && (f.value == value); }
    @Override public int hashCode() { return Double.hashCode(value == 0.0 ? 0.0 : value); }
}
