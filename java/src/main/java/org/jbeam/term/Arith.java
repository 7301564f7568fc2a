package org.jbeam.term;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.jbeam.runtime.ErlangException;

/**
 * Erlang arithmetic on terms with OTP 25 semantics (erts/emulator/beam/erl_arith.c, big.c):
 * integers are unbounded (long fast path, BigInteger fallback, results normalised through
 * {@link EInteger#of}), mixed integer/float operands promote to float, and every error is raised
 * exactly as OTP raises it ({@code badarith}, {@code badarg} for the conversion BIFs,
 * {@code system_limit} for integers beyond OTP's bignum size).
 */
public final class Arith {
    private Arith() {}

    /** Largest magnitude, in bits, of an OTP 25 bignum on 64-bit: (2^19 - 1) words of 64 bits. */
    public static final long MAX_BIG_BITS = ((1L << 19) - 1) * 64;

    // ---------------------------------------------------------------- + - *

    public static Term add(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value + y.value;
            if (((x.value ^ r) & (y.value ^ r)) >= 0) return ESmall.of(r);
            return big(BigInteger.valueOf(x.value).add(BigInteger.valueOf(y.value)));
        }
        if (a instanceof EInteger x && b instanceof EInteger y) return big(x.bigValue().add(y.bigValue()));
        return flt(toDoubleArith(a) + toDoubleArith(b));
    }

    public static Term sub(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value - y.value;
            if (((x.value ^ y.value) & (x.value ^ r)) >= 0) return ESmall.of(r);
            return big(BigInteger.valueOf(x.value).subtract(BigInteger.valueOf(y.value)));
        }
        if (a instanceof EInteger x && b instanceof EInteger y) return big(x.bigValue().subtract(y.bigValue()));
        return flt(toDoubleArith(a) - toDoubleArith(b));
    }

    public static Term mul(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long hi = Math.multiplyHigh(x.value, y.value), lo = x.value * y.value;
            if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) return ESmall.of(lo);
            return big(BigInteger.valueOf(x.value).multiply(BigInteger.valueOf(y.value)));
        }
        if (a instanceof EInteger x && b instanceof EInteger y) {
            BigInteger p = x.bigValue(), q = y.bigValue();
            if (p.signum() == 0 || q.signum() == 0) return ESmall.ZERO;
            if ((long) p.bitLength() + q.bitLength() > MAX_BIG_BITS + 2) throw ErlangException.systemLimit();
            return big(p.multiply(q));
        }
        return flt(toDoubleArith(a) * toDoubleArith(b));
    }

    /** Unary minus ({@code erlang:'-'/1}). */
    public static Term neg(Term a) {
        if (a instanceof ESmall x) return x.value == Long.MIN_VALUE ? big(x.bigValue().negate()) : ESmall.of(-x.value);
        if (a instanceof EBig x) return big(x.value.negate());
        if (a instanceof EFloat f) return new EFloat(-f.value);
        throw ErlangException.badarith();
    }

    /** Unary plus ({@code erlang:'+'/1}): the number itself; badarith otherwise. */
    public static Term plus(Term a) {
        if (a instanceof ENumber) return a;
        throw ErlangException.badarith();
    }

    // ---------------------------------------------------------------- / div rem

    /** {@code '/'}: always a float; badarith on division by (any) zero or overflow. */
    public static Term fdiv(Term a, Term b) {
        double x = toDoubleArith(a), y = toDoubleArith(b);
        if (y == 0.0) throw ErlangException.badarith();
        return flt(x / y);
    }

    /** {@code div}: integer division truncating toward zero. */
    public static Term intDiv(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            if (y.value == 0) throw ErlangException.badarith();
            if (y.value == -1) return neg(x);
            return ESmall.of(x.value / y.value);
        }
        if (a instanceof EInteger x && b instanceof EInteger y) {
            if (y.signum() == 0) throw ErlangException.badarith();
            return big(x.bigValue().divide(y.bigValue()));
        }
        throw ErlangException.badarith();
    }

    /** {@code rem}: remainder with the sign of the dividend. */
    public static Term rem(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            if (y.value == 0) throw ErlangException.badarith();
            if (y.value == -1) return ESmall.ZERO;
            return ESmall.of(x.value % y.value);
        }
        if (a instanceof EInteger x && b instanceof EInteger y) {
            if (y.signum() == 0) throw ErlangException.badarith();
            return big(x.bigValue().remainder(y.bigValue()));
        }
        throw ErlangException.badarith();
    }

    // ---------------------------------------------------------------- bitwise

    public static Term band(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) return ESmall.of(x.value & y.value);
        if (a instanceof EInteger x && b instanceof EInteger y) return EInteger.of(x.bigValue().and(y.bigValue()));
        throw ErlangException.badarith();
    }

    public static Term bor(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) return ESmall.of(x.value | y.value);
        if (a instanceof EInteger x && b instanceof EInteger y) return EInteger.of(x.bigValue().or(y.bigValue()));
        throw ErlangException.badarith();
    }

    public static Term bxor(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) return ESmall.of(x.value ^ y.value);
        if (a instanceof EInteger x && b instanceof EInteger y) return EInteger.of(x.bigValue().xor(y.bigValue()));
        throw ErlangException.badarith();
    }

    public static Term bnot(Term a) {
        if (a instanceof ESmall x) return ESmall.of(~x.value);
        if (a instanceof EBig x) return big(x.value.not());
        throw ErlangException.badarith();
    }

    public static Term bsl(Term a, Term b) { return shift(a, b, false); }

    public static Term bsr(Term a, Term b) { return shift(a, b, true); }

    /** OTP's shift(): a bignum shift count means "everything shifted out" or system_limit. */
    private static Term shift(Term a, Term b, boolean right) {
        if (!(a instanceof EInteger x) || !(b instanceof EInteger y)) throw ErlangException.badarith();
        long n;
        if (y instanceof ESmall sh) {
            n = sh.value;
            if (right) n = n == Long.MIN_VALUE ? Long.MAX_VALUE : -n;
        } else {
            boolean leftward = (y.signum() > 0) != right;
            if (!leftward || x.signum() == 0) return x.signum() < 0 ? ESmall.MINUS_ONE : ESmall.ZERO;
            throw ErlangException.systemLimit();
        }
        if (n == 0 || x.signum() == 0) return x;
        if (n < 0) { // right shift
            if (n <= -Integer.MAX_VALUE) return x.signum() < 0 ? ESmall.MINUS_ONE : ESmall.ZERO;
            if (x instanceof ESmall s) return ESmall.of(n <= -63 ? (s.value < 0 ? -1 : 0) : s.value >> -n);
            return EInteger.of(x.bigValue().shiftRight((int) -n));
        }
        if (x instanceof ESmall s && n < 63) {
            long r = s.value << n;
            if ((r >> n) == s.value) return ESmall.of(r);
        }
        if (n > MAX_BIG_BITS) throw ErlangException.systemLimit();
        BigInteger v = x.bigValue();
        if (v.bitLength() + n > MAX_BIG_BITS + 1) throw ErlangException.systemLimit();
        return big(v.shiftLeft((int) n));
    }

    // ---------------------------------------------------------------- guard BIFs on numbers

    public static Term abs(Term a) {
        if (a instanceof ESmall x) return x.value >= 0 ? x : neg(x);
        if (a instanceof EBig x) return x.value.signum() >= 0 ? x : EInteger.of(x.value.negate());
        // OTP: "if (f < 0) f = -f", so abs(-0.0) stays -0.0.
        if (a instanceof EFloat f) return f.value < 0 ? new EFloat(-f.value) : f;
        throw ErlangException.badarg();
    }

    /** {@code float/1}: badarg for a non-number or an integer too large for a double. */
    public static EFloat toFloat(Term a) {
        if (a instanceof EFloat f) return f;
        if (a instanceof ESmall x) return new EFloat((double) x.value);
        if (a instanceof EBig x) {
            double d = bigToDouble(x.value);
            if (Double.isInfinite(d)) throw ErlangException.badarg();
            return new EFloat(d);
        }
        throw ErlangException.badarg();
    }

    public static Term trunc(Term a) {
        if (a instanceof EInteger) return a;
        if (a instanceof EFloat f) return doubleToInteger(f.value < 0 ? Math.ceil(f.value) : Math.floor(f.value));
        throw ErlangException.badarg();
    }

    public static Term floor(Term a) {
        if (a instanceof EInteger) return a;
        if (a instanceof EFloat f) return doubleToInteger(Math.floor(f.value));
        throw ErlangException.badarg();
    }

    public static Term ceil(Term a) {
        if (a instanceof EInteger) return a;
        if (a instanceof EFloat f) return doubleToInteger(Math.ceil(f.value));
        throw ErlangException.badarg();
    }

    /** {@code round/1}: C round(), halves away from zero. */
    public static Term round(Term a) {
        if (a instanceof EInteger) return a;
        if (a instanceof EFloat f) return doubleToInteger(cRound(f.value));
        throw ErlangException.badarg();
    }

    /** C99 round(): nearest integer, halfway cases away from zero (exact for every double). */
    public static double cRound(double d) {
        double t = d < 0 ? Math.ceil(d) : Math.floor(d);
        if (Math.abs(d - t) >= 0.5) t += Math.signum(d);
        return t;
    }

    /** The integer equal to an integral double. */
    public static EInteger doubleToInteger(double d) {
        if (d >= -0x1p63 && d < 0x1p63) return ESmall.of((long) d);
        return EInteger.of(new BigDecimal(d).toBigInteger());
    }

    // ---------------------------------------------------------------- conversions

    /**
     * OTP's big_to_double: Horner evaluation over 64-bit digits, each rounded to double, so the
     * result is not always correctly rounded (exactly as OTP). Infinite on overflow.
     */
    public static double bigToDouble(BigInteger v) {
        BigInteger m = v.abs();
        int digits = (m.bitLength() + 63) / 64;
        double d = 0.0;
        for (int i = digits - 1; i >= 0; i--) {
            long digit = m.shiftRight(i * 64).longValue();
            d = d * 0x1p64 + unsignedToDouble(digit);
            if (Double.isInfinite(d)) return v.signum() < 0 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return v.signum() < 0 ? -d : d;
    }

    /** Correctly rounded conversion of an unsigned 64-bit value. */
    static double unsignedToDouble(long u) {
        if (u >= 0) return (double) u;
        return (double) ((u >>> 1) | (u & 1)) * 2.0;
    }

    /** A number as a double for float arithmetic; badarith for non-numbers and integer overflow. */
    public static double toDoubleArith(Term t) {
        if (t instanceof EFloat f) return f.value;
        if (t instanceof ESmall s) return (double) s.value;
        if (t instanceof EBig b) {
            double d = bigToDouble(b.value);
            if (Double.isInfinite(d)) throw ErlangException.badarith();
            return d;
        }
        throw ErlangException.badarith();
    }

    /** A float result; non-finite results are badarith as in OTP. */
    public static EFloat flt(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) throw ErlangException.badarith();
        return new EFloat(d);
    }

    /** Normalises a BigInteger result and enforces OTP's maximum bignum size. */
    public static EInteger big(BigInteger v) {
        if (v.bitLength() >= MAX_BIG_BITS && magnitudeBits(v) > MAX_BIG_BITS) throw ErlangException.systemLimit();
        return EInteger.of(v);
    }

    private static long magnitudeBits(BigInteger v) { return v.signum() < 0 ? v.negate().bitLength() : v.bitLength(); }
}
