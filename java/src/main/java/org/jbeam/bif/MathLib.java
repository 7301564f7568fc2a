package org.jbeam.bif;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * The C math library functions behind OTP's {@code math} module (erts/emulator/beam/erl_math.c
 * calls libm directly). To give bit-identical results we call the platform libm through the
 * FFM API when it is available; otherwise we fall back to {@link StrictMath} (fdlibm) and
 * textbook formulas, which can differ from glibc in the last bit.
 */
final class MathLib {
    private MathLib() {}

    private static final Linker LINKER;
    static {
        Linker l = null;
        try { l = Linker.nativeLinker(); } catch (Throwable e) { /* no FFM: fall back */ }
        LINKER = l;
    }

    /** True when results come from the native libm (exact OTP parity). */
    static final boolean NATIVE;

    static final DoubleUnaryOperator SIN = f1("sin", StrictMath::sin), COS = f1("cos", StrictMath::cos),
            TAN = f1("tan", StrictMath::tan), ASIN = f1("asin", StrictMath::asin), ACOS = f1("acos", StrictMath::acos),
            ATAN = f1("atan", StrictMath::atan), SINH = f1("sinh", StrictMath::sinh), COSH = f1("cosh", StrictMath::cosh),
            TANH = f1("tanh", StrictMath::tanh), ASINH = f1("asinh", MathLib::asinhFallback),
            ACOSH = f1("acosh", MathLib::acoshFallback), ATANH = f1("atanh", MathLib::atanhFallback),
            EXP = f1("exp", StrictMath::exp), LOG = f1("log", StrictMath::log), LOG2 = f1("log2", MathLib::log2Fallback),
            LOG10 = f1("log10", StrictMath::log10), SQRT = f1("sqrt", StrictMath::sqrt),
            ERF = f1("erf", MathLib::erfFallback), ERFC = f1("erfc", x -> 1.0 - erfFallback(x)),
            CEIL = f1("ceil", StrictMath::ceil), FLOOR = f1("floor", StrictMath::floor);
    static final DoubleBinaryOperator ATAN2 = f2("atan2", StrictMath::atan2), POW = f2("pow", StrictMath::pow),
            FMOD = f2("fmod", (x, y) -> x % y);

    static {
        NATIVE = LINKER != null && find("sin").isPresent();
    }

    private static Optional<MemorySegment> find(String name) {
        if (LINKER == null) return Optional.empty();
        try { return LINKER.defaultLookup().find(name); } catch (Throwable e) { return Optional.empty(); }
    }

    // The functions are linked on first use: linking all 24 at boot took tens of milliseconds of
    // every bin/jbeam start-up, and most programs call none of them. A race links one twice, harmlessly.
    private static DoubleUnaryOperator f1(String name, DoubleUnaryOperator fallback) {
        return new DoubleUnaryOperator() {
            private DoubleUnaryOperator linked;
            @Override public double applyAsDouble(double x) {
                DoubleUnaryOperator f = linked;
                if (f == null) linked = f = link1(name, fallback);
                return f.applyAsDouble(x);
            }
        };
    }

    private static DoubleBinaryOperator f2(String name, DoubleBinaryOperator fallback) {
        return new DoubleBinaryOperator() {
            private DoubleBinaryOperator linked;
            @Override public double applyAsDouble(double x, double y) {
                DoubleBinaryOperator f = linked;
                if (f == null) linked = f = link2(name, fallback);
                return f.applyAsDouble(x, y);
            }
        };
    }

    private static DoubleUnaryOperator link1(String name, DoubleUnaryOperator fallback) {
        Optional<MemorySegment> sym = find(name);
        if (sym.isEmpty()) return fallback;
        try {
            MethodHandle mh = LINKER.downcallHandle(sym.get(), FunctionDescriptor.of(JAVA_DOUBLE, JAVA_DOUBLE), Linker.Option.critical(false));
            return x -> {
                try { return (double) mh.invokeExact(x); } catch (Throwable e) { throw new IllegalStateException(e); }
            };
        } catch (Throwable e) {
            return fallback;
        }
    }

    private static DoubleBinaryOperator link2(String name, DoubleBinaryOperator fallback) {
        Optional<MemorySegment> sym = find(name);
        if (sym.isEmpty()) return fallback;
        try {
            MethodHandle mh = LINKER.downcallHandle(sym.get(), FunctionDescriptor.of(JAVA_DOUBLE, JAVA_DOUBLE, JAVA_DOUBLE), Linker.Option.critical(false));
            return (x, y) -> {
                try { return (double) mh.invokeExact(x, y); } catch (Throwable e) { throw new IllegalStateException(e); }
            };
        } catch (Throwable e) {
            return fallback;
        }
    }

    // ---------------------------------------------------------------- fallbacks (not bit-exact)

    private static double asinhFallback(double x) {
        double a = Math.abs(x);
        double r = a > 1e8 ? StrictMath.log(a) + 0.6931471805599453 : StrictMath.log1p(a + a * a / (1 + StrictMath.sqrt(1 + a * a)));
        return Math.copySign(r, x);
    }

    private static double acoshFallback(double x) {
        if (x < 1) return Double.NaN;
        if (x > 1e8) return StrictMath.log(x) + 0.6931471805599453;
        double t = x - 1;
        return StrictMath.log1p(t + StrictMath.sqrt(2 * t + t * t));
    }

    private static double atanhFallback(double x) {
        double a = Math.abs(x);
        if (a > 1) return Double.NaN;
        return Math.copySign(0.5 * StrictMath.log1p(2 * a / (1 - a)), x);
    }

    private static double log2Fallback(double x) {
        if (x > 0 && !Double.isInfinite(x) && (Double.doubleToRawLongBits(x) & 0x000FFFFFFFFFFFFFL) == 0 && x >= Double.MIN_NORMAL)
            return Math.getExponent(x);
        return StrictMath.log(x) / 0.6931471805599453;
    }

    /** erf via its Taylor series / continued fraction (about 1e-15 relative accuracy). */
    private static double erfFallback(double x) {
        if (Double.isNaN(x)) return x;
        double a = Math.abs(x);
        if (a >= 6) return Math.copySign(1.0, x);
        double r;
        if (a < 2.5) {
            double sum = a, term = a, x2 = a * a;
            for (int n = 1; n < 200; n++) {
                term *= -x2 / n;
                double t = term / (2 * n + 1);
                sum += t;
                if (Math.abs(t) < 1e-17 * Math.abs(sum)) break;
            }
            r = sum * 1.1283791670955126;
        } else {
            double f = 0; // erfc continued fraction
            for (int n = 60; n >= 1; n--) f = n / 2.0 / (a + f);
            r = 1 - StrictMath.exp(-a * a) / (a + f) * 0.5641895835477563;
        }
        return Math.copySign(r, x);
    }
}
