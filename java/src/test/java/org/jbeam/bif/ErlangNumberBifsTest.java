package org.jbeam.bif;

import static org.jbeam.ErlOracle.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.ErlOracle;
import org.jbeam.ErlOracle.Call;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/**
 * Differential test of {@link ErlangNumberBifs} against the real erl: arithmetic (with bignum
 * edges, div/rem signs, shifts and their system_limit), number guard BIFs, integer/text
 * conversions, and the math module. One erl run; every result is compared exactly.
 */
class ErlangNumberBifsTest {
    private static final BifTable TABLE = new BifTable();
    static { new ErlangNumberBifs().register(TABLE); }

    static final Term[] INTS = {
        i(0), i(1), i(-1), i(2), i(-7), i(7), i(3), i(255), i(1L << 31), i((1L << 59) - 1), i(1L << 59), i(-(1L << 59)),
        i(1L << 60), i(1L << 62), i(Long.MAX_VALUE), i(Long.MIN_VALUE), big("9223372036854775808"),
        big("-9223372036854775809"), big("18446744073709551616"), big("18446744073709551617"), big("-18446744073709551616"),
        big("1000000000000000000000000000000"), big("-1000000000000000000000000000000"),
        EInteger.of(BigInteger.ONE.shiftLeft(117).add(BigInteger.ONE.shiftLeft(64)).add(BigInteger.ONE)),
        EInteger.of(BigInteger.ONE.shiftLeft(1023)), EInteger.of(BigInteger.ONE.shiftLeft(1024)),
        EInteger.of(BigInteger.ONE.shiftLeft(1024).subtract(BigInteger.ONE.shiftLeft(971))),
        EInteger.of(BigInteger.ONE.shiftLeft(1024).subtract(BigInteger.ONE.shiftLeft(970)).negate()),
    };
    static final Term[] FLOATS = { f(0.0), f(-0.0), f(1.5), f(-2.5), f(1e308), f(-1e308), f(4.9e-324), f(1e-300), f(0.1), f(3.0), f(-7.0) };
    static final Term[] OTHER = { a("a"), ECons.of(), EBitString.ofLatin1("1") };

    static Term[] all() {
        List<Term> l = new ArrayList<>(List.of(INTS));
        l.addAll(List.of(FLOATS));
        l.addAll(List.of(OTHER));
        return l.toArray(Term[]::new);
    }

    private final List<Call> calls = new ArrayList<>();
    private final List<String> java = new ArrayList<>();

    private void call(String m, String f, Term... args) {
        calls.add(new Call(m, f, args));
        BifTable.Entry e = TABLE.lookup(m, f, args.length);
        assertTrue(e != null, m + ":" + f + "/" + args.length + " not registered");
        java.add(ErlOracle.canon(() -> Bif.invoke(e.fn(), null, args)));
    }

    @Test
    void mathUsesNativeLibm() {
        assertTrue(MathLib.NATIVE, "libm not reachable through FFM: math results may differ from OTP in the last bit");
    }

    @Test
    void numbersMatchErl() {
        Term[] vals = all();
        for (String op : List.of("+", "-", "*", "/", "div", "rem", "band", "bor", "bxor"))
            for (Term x : vals) for (Term y : vals) call("erlang", op, x, y);
        Term[] shifts = { i(0), i(1), i(-1), i(3), i(-3), i(63), i(64), i(-64), i(100), i(-100), i(1000), i(-1000),
            i(100000000000L), i(-100000000000L), big("1180591620717411303424"), big("-1180591620717411303424"), f(1.0), a("x") };
        for (Term x : vals) for (Term s : shifts) { call("erlang", "bsl", x, s); call("erlang", "bsr", x, s); }
        for (Term x : new Term[] { i(1), i(-1), i(3), big("18446744073709551617") })
            for (long n : new long[] { 33554367, 33554368, 4294967295L }) {
                if (n == 33554367 && (x.equals(i(1)) || x.equals(i(-1)))) continue; // valid but huge results
                call("erlang", "bsl", x, i(n));
                call("erlang", "bsr", x, i(-n));
            }
        List<Term> un = new ArrayList<>(List.of(vals));
        for (double d : new double[] { 0.5, -0.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 1e20, -1e300,
                4503599627370497.0, 9.223372036854775807E18, -9.223372036854775808E18, 1.8446744073709552E19, 123.456, -99.99 })
            un.add(f(d));
        for (String op : List.of("-", "+", "bnot", "abs", "trunc", "round", "floor", "ceil", "float"))
            for (Term x : un) call("erlang", op, x);
        conversions();
        math();
        compare();
    }

    private void conversions() {
        for (Term x : all()) {
            call("erlang", "integer_to_list", x);
            call("erlang", "integer_to_binary", x);
            for (long b : new long[] { 1, 2, 3, 7, 8, 10, 16, 17, 35, 36, 37 }) {
                call("erlang", "integer_to_list", x, i(b));
                call("erlang", "integer_to_binary", x, i(b));
            }
        }
        call("erlang", "integer_to_list", i(10), a("x"));
        String[] strs = { "1", "-1", "+1", "", "-", "+", "--1", "+-1", " 1", "1 ", "0x10", "ff", "FF", "zz", "Zz", "0012", "-0",
            "1_000", "123456789012345678901234567890", "-99999999999999999999", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "zzzzzzzzzzzzz", "ZZZZZZZZZZZZ", "1.0", "1e5", "12\0", "\u00e9",
            "0", "00000000000000000000000000001", "7fffffffffffffff", "-8000000000000000", "11111111111111111111111111111111111111111111111111111111111111111" };
        for (String s : strs) {
            for (long b : new long[] { 2, 10, 16, 36 }) {
                call("erlang", "list_to_integer", str(s), i(b));
                call("erlang", "binary_to_integer", EBitString.ofLatin1(s), i(b));
            }
            call("erlang", "list_to_integer", str(s));
            call("erlang", "binary_to_integer", EBitString.ofLatin1(s));
        }
        call("erlang", "list_to_integer", ECons.of(i(49), i(300)));
        call("erlang", "list_to_integer", new ECons(i(49), i(50)));
        call("erlang", "list_to_integer", a("x"));
        call("erlang", "list_to_integer", str("10"), i(1));
        call("erlang", "list_to_integer", str("10"), i(37));
        call("erlang", "list_to_integer", str("10"), a("a"));
        call("erlang", "binary_to_integer", new EBitString(new byte[] { 0x31, (byte) 0x80 }, 0, 9));
        call("erlang", "binary_to_integer", str("12"));
        for (double d : new double[] { 0.0, -0.0, 1.5, -1.0e-5, 1.0e25, 123.456, 5.0e-324 }) {
            call("erlang", "float_to_binary", f(d));
            call("erlang", "float_to_binary", f(d), ECons.of(a("short")));
            call("erlang", "float_to_binary", f(d), ECons.of(ETuple.of(a("decimals"), i(4)), a("compact")));
            call("erlang", "float_to_list", f(d), ECons.of(ETuple.of(a("scientific"), i(3))));
        }
        for (Term x : new Term[] { i(1), a("a"), str("1.5") }) { call("erlang", "float_to_binary", x); call("erlang", "float_to_list", x); }
        for (String s : new String[] { "1.5", "-0.0", "1,5", "1.5\0x", "1", "", "1.0e400", "2.5e-3", " 1.0" }) {
            call("erlang", "binary_to_float", EBitString.ofLatin1(s));
            call("erlang", "list_to_float", str(s));
        }
        call("erlang", "binary_to_float", new EBitString(new byte[] { 0x31, 0x2e, 0x35, 0 }, 0, 28));
        call("erlang", "binary_to_float", str("1.5"));
        call("erlang", "list_to_float", ECons.of(i(49), i(46), i(53), i(300)));
        call("erlang", "list_to_float", new ECons(i(49), i(46)));
    }

    private void math() {
        Term[] args = { i(0), i(1), i(-1), f(0.5), f(-0.5), i(2), i(10), f(1e-10), f(1e300), f(-1e300), f(3.14159), i(100),
            i(1000), i(-1000), f(0.0), f(-0.0), f(1e-320), f(0.9999999), f(1.0000001), i(710), f(709.78), f(-745.2), f(27.5),
            f(-3.7), f(1e22), INTS[25], INTS[26], a("a"), EBitString.EMPTY };
        for (String fn : List.of("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
                "atanh", "exp", "log", "log2", "log10", "sqrt", "erf", "erfc", "ceil", "floor"))
            for (Term x : args) call("math", fn, x);
        Term[] args2 = { i(0), i(2), i(-8), f(0.5), f(-0.0), f(1.0 / 3), i(-1), f(1e300), i(1000), f(-2.5), a("a"), INTS[26] };
        for (String fn : List.of("atan2", "pow", "fmod"))
            for (Term x : args2) for (Term y : args2) call("math", fn, x, y);
        call("math", "pi");
    }

    private void compare() {
        List<String> erl = ErlOracle.run(calls);
        List<String> bad = new ArrayList<>();
        for (int k = 0; k < calls.size(); k++) {
            if (!erl.get(k).equals(java.get(k))) {
                Call c = calls.get(k);
                bad.add(c.module() + ":" + c.function() + TermPrinter.print(ECons.of(c.args())) + "\n   erl:  " + erl.get(k) + "\n   java: " + java.get(k));
            }
        }
        System.out.println("ErlangNumberBifsTest: " + calls.size() + " calls, " + bad.size() + " mismatches");
        bad.stream().limit(40).forEach(System.out::println);
        assertEquals(0, bad.size(), "mismatches with erl (see output)");
    }
}
