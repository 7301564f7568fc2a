package org.jbeam.bif;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Number BIFs of module {@code erlang} (arithmetic operators, guard BIFs on numbers, number/text
 * conversions) and the {@code math} module (erl_math.c), with OTP 25 semantics. Arithmetic is
 * in {@link Arith}, float text in {@link FloatFormat} / {@link FloatParse}.
 */
public final class ErlangNumberBifs implements BifModule {
    private static final String E = "erlang", M = "math";

    @Override
    public void register(BifTable t) {
        t.guard2(E, "+", (p, a, b) -> Arith.add(a, b));
        t.guard2(E, "-", (p, a, b) -> Arith.sub(a, b));
        t.guard2(E, "*", (p, a, b) -> Arith.mul(a, b));
        t.guard2(E, "/", (p, a, b) -> Arith.fdiv(a, b));
        t.guard2(E, "div", (p, a, b) -> Arith.intDiv(a, b));
        t.guard2(E, "rem", (p, a, b) -> Arith.rem(a, b));
        t.guard2(E, "band", (p, a, b) -> Arith.band(a, b));
        t.guard2(E, "bor", (p, a, b) -> Arith.bor(a, b));
        t.guard2(E, "bxor", (p, a, b) -> Arith.bxor(a, b));
        t.guard2(E, "bsl", (p, a, b) -> Arith.bsl(a, b));
        t.guard2(E, "bsr", (p, a, b) -> Arith.bsr(a, b));
        t.guard1(E, "bnot", (p, a) -> Arith.bnot(a));
        t.guard1(E, "-", (p, a) -> Arith.neg(a));
        t.guard1(E, "+", (p, a) -> Arith.plus(a));
        t.guard1(E, "abs", (p, a) -> Arith.abs(a));
        t.guard1(E, "trunc", (p, a) -> Arith.trunc(a));
        t.guard1(E, "round", (p, a) -> Arith.round(a));
        t.guard1(E, "floor", (p, a) -> Arith.floor(a));
        t.guard1(E, "ceil", (p, a) -> Arith.ceil(a));
        t.guard1(E, "float", (p, a) -> Arith.toFloat(a));

        t.bif1(E, "float_to_list", (p, f) -> string(FloatFormat.legacy(flt(f))));
        t.bif2(E, "float_to_list", (p, f, o) -> string(FloatFormat.format(flt(f), o)));
        t.bif1(E, "float_to_binary", (p, f) -> EBitString.ofLatin1(FloatFormat.legacy(flt(f))));
        t.bif2(E, "float_to_binary", (p, f, o) -> EBitString.ofLatin1(FloatFormat.format(flt(f), o)));
        t.bif1(E, "list_to_float", (p, l) -> new EFloat(FloatParse.parseFloat(listToString(l))));
        t.bif1(E, "binary_to_float", (p, b) -> new EFloat(FloatParse.parseFloat(binaryToString(b, true))));
        t.bif1(E, "integer_to_list", (p, i) -> string(integerToString(i, ESmall.of(10))));
        t.bif2(E, "integer_to_list", (p, i, b) -> string(integerToString(i, b)));
        t.bif1(E, "integer_to_binary", (p, i) -> EBitString.ofLatin1(integerToString(i, ESmall.of(10))));
        t.bif2(E, "integer_to_binary", (p, i, b) -> EBitString.ofLatin1(integerToString(i, b)));
        t.bif1(E, "list_to_integer", (p, l) -> parseInteger(listToString(l), 10));
        t.bif2(E, "list_to_integer", (p, l, b) -> { String s = listToString(l); return parseInteger(s, base(b)); });
        t.bif1(E, "binary_to_integer", (p, l) -> parseInteger(binaryToString(l, false), 10));
        t.bif2(E, "binary_to_integer", (p, l, b) -> { String s = binaryToString(l, false); return parseInteger(s, base(b)); });

        math1(t, "sin", MathLib.SIN); math1(t, "cos", MathLib.COS); math1(t, "tan", MathLib.TAN);
        math1(t, "asin", MathLib.ASIN); math1(t, "acos", MathLib.ACOS); math1(t, "atan", MathLib.ATAN);
        math1(t, "sinh", MathLib.SINH); math1(t, "cosh", MathLib.COSH); math1(t, "tanh", MathLib.TANH);
        math1(t, "asinh", MathLib.ASINH); math1(t, "acosh", MathLib.ACOSH); math1(t, "atanh", MathLib.ATANH);
        math1(t, "exp", MathLib.EXP); math1(t, "log", MathLib.LOG); math1(t, "log2", MathLib.LOG2);
        math1(t, "log10", MathLib.LOG10); math1(t, "sqrt", MathLib.SQRT); math1(t, "erf", MathLib.ERF);
        math1(t, "erfc", MathLib.ERFC); math1(t, "ceil", MathLib.CEIL); math1(t, "floor", MathLib.FLOOR);
        math2(t, "atan2", MathLib.ATAN2); math2(t, "pow", MathLib.POW); math2(t, "fmod", MathLib.FMOD);
        t.bif0(M, "pi", p -> new EFloat(Math.PI));
    }

    // ---------------------------------------------------------------- math (erl_math.c)

    private static void math1(BifTable t, String name, DoubleUnaryOperator f) {
        t.bif1(M, name, (p, a) -> Arith.flt(f.applyAsDouble(mathArg(a))));
    }

    private static void math2(BifTable t, String name, DoubleBinaryOperator f) {
        t.bif2(M, name, (p, a, b) -> {
            double x = mathArg(a), y = mathArg(b);
            return Arith.flt(f.applyAsDouble(x, y));
        });
    }

    /** An argument of a math function: badarg for a non-number, badarith for a too large integer. */
    private static double mathArg(Term a) {
        if (!(a instanceof ENumber)) throw ErlangException.badarg();
        return Arith.toDoubleArith(a);
    }

    // ---------------------------------------------------------------- integers <-> text

    private static double flt(Term f) {
        if (f instanceof EFloat x) return x.value;
        throw ErlangException.badarg();
    }

    private static int base(Term b) {
        if (b instanceof ESmall s && s.value >= 2 && s.value <= 36) return (int) s.value;
        throw ErlangException.badarg();
    }

    /** integer_to_list/2 text: upper-case digits, leading '-' for negatives. */
    public static String integerToString(Term i, Term base) {
        if (!(i instanceof EInteger n)) throw ErlangException.badarg();
        int radix = base(base);
        String s = n instanceof ESmall sm ? Long.toString(sm.value, radix) : ((EBig) n).value.toString(radix);
        return radix > 10 ? s.toUpperCase(java.util.Locale.ROOT) : s;
    }

    /** erts_chars_to_integer: optional sign, one or more digits of the base, nothing else. */
    public static EInteger parseInteger(String s, int radix) {
        int n = s.length(), i = 0;
        if (n > 0 && (s.charAt(0) == '+' || s.charAt(0) == '-')) i = 1;
        if (i == n) throw ErlangException.badarg();
        for (int j = i; j < n; j++) if (digit(s.charAt(j)) >= radix) throw ErlangException.badarg();
        String digits = s.charAt(0) == '+' ? s.substring(1) : s;
        if (n - i <= 18 - (radix > 10 ? 6 : 0)) return ESmall.of(Long.parseLong(digits, radix));
        return Arith.big(new BigInteger(digits, radix));
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'z') return c - 'a' + 10;
        if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
        return 99;
    }

    // ---------------------------------------------------------------- strings and binaries

    /** A proper list of byte-valued integers (OTP's intlist_to_buf) as a Latin-1 string; badarg otherwise. */
    static String listToString(Term l) {
        StringBuilder sb = new StringBuilder();
        while (l instanceof ECons c) {
            if (!(c.head instanceof ESmall s) || s.value < 0 || s.value > 255) throw ErlangException.badarg();
            sb.append((char) s.value);
            l = c.tail;
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        return sb.toString();
    }

    /** A binary's bytes as Latin-1; badarg for non-binaries (and for empty ones when {@code nonEmpty}). */
    static String binaryToString(Term b, boolean nonEmpty) {
        if (!(b instanceof EBitString bs) || !bs.isBinaryAligned()) throw ErlangException.badarg();
        if (nonEmpty && bs.byteSize() == 0) throw ErlangException.badarg();
        return new String(bs.array(), bs.arrayOffset(), bs.byteSize(), StandardCharsets.ISO_8859_1);
    }

    /** An Erlang string (list of code points) from Latin-1/ASCII text. */
    static EList string(String s) {
        EList l = ENil.NIL;
        for (int i = s.length() - 1; i >= 0; i--) l = new ECons(ESmall.of(s.charAt(i)), l);
        return l;
    }
}
