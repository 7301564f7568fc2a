package org.jbeam.bif;

import java.math.BigInteger;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Interim arithmetic BIFs (the operators), so the runtime can boot while the full number
 * library (ErlangNumberBifs: conversions, float formatting, math) lands. Removed when it does.
 */
public final class ArithBifs implements BifModule {
    @Override
    public void register(BifTable t) {
        t.guard2("erlang", "+", (p, a, b) -> add(a, b));
        t.guard2("erlang", "-", (p, a, b) -> sub(a, b));
        t.guard2("erlang", "*", (p, a, b) -> mul(a, b));
        t.guard2("erlang", "div", (p, a, b) -> {
            if (!(a instanceof EInteger x) || !(b instanceof EInteger y) || y.signum() == 0) throw ErlangException.badarith();
            if (x instanceof ESmall sx && y instanceof ESmall sy && !(sx.value == Long.MIN_VALUE && sy.value == -1)) return ESmall.of(sx.value / sy.value);
            return EInteger.of(x.bigValue().divide(y.bigValue()));
        });
        t.guard2("erlang", "rem", (p, a, b) -> {
            if (!(a instanceof EInteger x) || !(b instanceof EInteger y) || y.signum() == 0) throw ErlangException.badarith();
            if (x instanceof ESmall sx && y instanceof ESmall sy && sy.value != -1) return ESmall.of(sx.value % sy.value);
            return EInteger.of(x.bigValue().remainder(y.bigValue()));
        });
        t.guard2("erlang", "/", (p, a, b) -> {
            double d = num(b);
            if (d == 0.0) throw ErlangException.badarith();
            return checked(num(a) / d);
        });
        t.guard2("erlang", "band", (p, a, b) -> EInteger.of(big(a).and(big(b))));
        t.guard2("erlang", "bor", (p, a, b) -> EInteger.of(big(a).or(big(b))));
        t.guard2("erlang", "bxor", (p, a, b) -> EInteger.of(big(a).xor(big(b))));
        t.guard2("erlang", "bsl", (p, a, b) -> shift(a, b, true));
        t.guard2("erlang", "bsr", (p, a, b) -> shift(a, b, false));
        t.guard1("erlang", "bnot", (p, a) -> EInteger.of(big(a).not()));
        t.guard1("erlang", "-", (p, a) -> sub(ESmall.ZERO, a));
        t.guard1("erlang", "+", (p, a) -> { if (!(a instanceof ENumber)) throw ErlangException.badarith(); return a; });
    }

    private static BigInteger big(Term t) {
        if (t instanceof EInteger i) return i.bigValue();
        throw ErlangException.badarith();
    }

    private static double num(Term t) {
        if (t instanceof ENumber n) {
            double d = n.doubleValue();
            if (Double.isInfinite(d)) throw ErlangException.badarith();
            return d;
        }
        throw ErlangException.badarith();
    }

    private static Term checked(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) throw ErlangException.badarith();
        return EFloat.of(d);
    }

    static Term add(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value + y.value;
            if (((x.value ^ r) & (y.value ^ r)) < 0) return EInteger.of(BigInteger.valueOf(x.value).add(BigInteger.valueOf(y.value)));
            return ESmall.of(r);
        }
        if (a instanceof EInteger x && b instanceof EInteger y) return EInteger.of(x.bigValue().add(y.bigValue()));
        return checked(num(a) + num(b));
    }

    static Term sub(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value - y.value;
            if (((x.value ^ y.value) & (x.value ^ r)) < 0) return EInteger.of(BigInteger.valueOf(x.value).subtract(BigInteger.valueOf(y.value)));
            return ESmall.of(r);
        }
        if (a instanceof EInteger x && b instanceof EInteger y) return EInteger.of(x.bigValue().subtract(y.bigValue()));
        return checked(num(a) - num(b));
    }

    static Term mul(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long hi = Math.multiplyHigh(x.value, y.value), lo = x.value * y.value;
            if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) return ESmall.of(lo);
            return EInteger.of(BigInteger.valueOf(x.value).multiply(BigInteger.valueOf(y.value)));
        }
        if (a instanceof EInteger x && b instanceof EInteger y) return EInteger.of(x.bigValue().multiply(y.bigValue()));
        return checked(num(a) * num(b));
    }

    private static Term shift(Term a, Term b, boolean left) {
        if (!(a instanceof EInteger x) || !(b instanceof EInteger y)) throw ErlangException.badarith();
        if (!(y instanceof ESmall s)) {
            if ((y.signum() > 0) == left && x.signum() != 0) throw ErlangException.systemLimit();
            return x.signum() < 0 ? ESmall.MINUS_ONE : ESmall.ZERO;
        }
        long n = left ? s.value : -s.value;
        if (n > (1 << 26) && x.signum() != 0) throw ErlangException.systemLimit();
        if (n < -(1L << 31)) return x.signum() < 0 ? ESmall.MINUS_ONE : ESmall.ZERO;
        BigInteger v = x.bigValue();
        return EInteger.of(n >= 0 ? v.shiftLeft((int) n) : v.shiftRight((int) -n));
    }
}
