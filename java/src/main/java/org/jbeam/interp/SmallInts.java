package org.jbeam.interp;

import org.jbeam.term.EFloat;
import org.jbeam.term.ESmall;
import org.jbeam.term.Term;

/**
 * The small-integer fast paths of the arithmetic BIFs, shared by the interpreter's slow
 * instructions and the bytecode tier: each returns the result, or null when the general BIF
 * must run (bignums, floats, overflow, bad arguments). {@code +} and {@code -} are also written
 * inline in the dispatch loop, which keeps its operand code under HotSpot's inlining limit.
 * {@code +}, {@code -} and {@code *} of two floats are here too: OTP 25 leaves a float sum in a
 * guard (bench_mandel's {@code Zr2 + Zi2 > 4.0}) as a gc_bif, not a float-register op.
 */
final class SmallInts {
    private SmallInts() {}

    static Term add(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value + y.value;
            if (((x.value ^ r) & (y.value ^ r)) >= 0) return ESmall.of(r);
        } else if (a instanceof EFloat x && b instanceof EFloat y) return flt(x.value + y.value);
        return null;
    }

    /** A finite float result; null leaves infinity (badarith) to the general BIF. */
    private static Term flt(double d) { return Double.isFinite(d) ? new EFloat(d) : null; }

    static Term sub(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value - y.value;
            if (((x.value ^ y.value) & (x.value ^ r)) >= 0) return ESmall.of(r);
        } else if (a instanceof EFloat x && b instanceof EFloat y) return flt(x.value - y.value);
        return null;
    }

    static Term mul(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long hi = Math.multiplyHigh(x.value, y.value), lo = x.value * y.value;
            if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) return ESmall.of(lo);
        } else if (a instanceof EFloat x && b instanceof EFloat y) return flt(x.value * y.value);
        return null;
    }

    private static boolean divisible(Term a, Term b) {
        return a instanceof ESmall x && b instanceof ESmall y && y.value != 0 && (y.value != -1 || x.value != Long.MIN_VALUE);
    }

    static Term rem(Term a, Term b) { return divisible(a, b) ? ESmall.of(((ESmall) a).value % ((ESmall) b).value) : null; }

    static Term idiv(Term a, Term b) { return divisible(a, b) ? ESmall.of(((ESmall) a).value / ((ESmall) b).value) : null; }

    static Term band(Term a, Term b) { return a instanceof ESmall x && b instanceof ESmall y ? ESmall.of(x.value & y.value) : null; }

    static Term bor(Term a, Term b) { return a instanceof ESmall x && b instanceof ESmall y ? ESmall.of(x.value | y.value) : null; }

    static Term bxor(Term a, Term b) { return a instanceof ESmall x && b instanceof ESmall y ? ESmall.of(x.value ^ y.value) : null; }

    static Term bsr(Term a, Term b) {
        return a instanceof ESmall x && b instanceof ESmall y && y.value >= 0 && y.value <= 63 ? ESmall.of(x.value >> y.value) : null;
    }

    static Term bsl(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y && y.value >= 0 && y.value < 63) {
            long r = x.value << y.value;
            if (r >> y.value == x.value) return ESmall.of(r);
        }
        return null;
    }

    // ---- a literal small integer as the second operand (the bytecode tier, ADR 0059) ----
    // The literal reaches these as a long constant in the compiled function's bytecode, not as
    // the value field of a constant ESmall, which C2 must load (an instance field it does not
    // trust as constant): with the constant in sight it folds the overflow and divisor tests,
    // and `N rem 256` is a mask and two adds instead of an idiv (20-40 cycles; a tenth of
    // bench_binary's build loop). Same results as the general helpers; null: the general BIF.

    static Term addK(Term a, long k) {
        if (a instanceof ESmall x) {
            long r = x.value + k;
            if (((x.value ^ r) & (k ^ r)) >= 0) return ESmall.of(r);
        }
        return null; // a float plus an integer, like a bignum, is the general BIF's (as in add)
    }

    static Term subK(Term a, long k) {
        if (a instanceof ESmall x) {
            long r = x.value - k;
            if (((x.value ^ k) & (x.value ^ r)) >= 0) return ESmall.of(r);
        }
        return null;
    }

    static Term remK(Term a, long k) {
        return a instanceof ESmall x && k != 0 && (k != -1 || x.value != Long.MIN_VALUE) ? ESmall.of(x.value % k) : null;
    }

    static Term idivK(Term a, long k) {
        return a instanceof ESmall x && k != 0 && (k != -1 || x.value != Long.MIN_VALUE) ? ESmall.of(x.value / k) : null;
    }

    static Term bandK(Term a, long k) { return a instanceof ESmall x ? ESmall.of(x.value & k) : null; }

    static Term bsrK(Term a, long k) { return a instanceof ESmall x && k >= 0 && k <= 63 ? ESmall.of(x.value >> k) : null; }
}
