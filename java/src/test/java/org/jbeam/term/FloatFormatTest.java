package org.jbeam.term;

import static org.jbeam.ErlOracle.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import org.jbeam.ErlOracle;
import org.jbeam.ErlOracle.Call;
import org.junit.jupiter.api.Test;

/**
 * Differential test of {@link FloatFormat} and {@link FloatParse} against the real erl:
 * {@code float_to_list(F, [short])} for hand-picked, boundary and random-bit-pattern doubles,
 * {@code float_to_list/1,2} with decimals/scientific/compact options, and {@code list_to_float}
 * acceptance of tricky strings. One erl run; results compared exactly.
 */
class FloatFormatTest {
    private final List<Call> calls = new ArrayList<>();
    private final List<String> java = new ArrayList<>();

    private void check(Call c, Supplier<Term> j) {
        calls.add(c);
        java.add(ErlOracle.canon(j));
    }

    static List<Double> doubles() {
        List<Double> l = new ArrayList<>(List.of(0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1.0e10, 1.0e9, 1.0e15, 1.0e16, 1.0e17,
            1.0e20, 1.0e21, 1.0e22, 1.0e23, 1.0e25, 1.0e-5, 1.0e-4, 1.0e-3, 123456789012345680.0, 5.0e-324, 1.5e-323,
            Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE, 9007199254740992.0, 9007199254740991.0,
            9007199254740994.0, 18014398509481984.0, 18014398509481988.0, 1.801439850948198e16, 3.602879701896397e16,
            1.0000000000000002e16, 1234567890.0, 12345678900.0, 123456789000.0, 100.0, 1000.0, 12340.0, 123400.0,
            0.00123, 1.23e-4, 1.234e-5, 2.5, 0.5, 0.125, 0.375, 9.999, 99.99, 0.1245, 0.145, 1.005, 2.675, 1e300,
            1.5e300, 4.35, 0.045, 1.0 / 3, 2.0 / 3, Math.PI, Math.E, 4503599627370497.0, 4503599627370495.5,
            900719925474099.1, 9007199254740.993, 90071992547409.9, 0.9999999999999999, 123.456, 1.7976931348623157e308,
            2.2250738585072014e-308, 2.225073858507201e-308, 6.02214076e23, 6.62607015e-34, 299792458.0, 1e-7, 1e-10));
        for (int e = -25; e <= 25; e++) {
            double p = Double.parseDouble("1e" + e);
            l.add(p); l.add(Math.nextUp(p)); l.add(Math.nextDown(p)); l.add(-3.7 * p);
        }
        for (int e = 50; e <= 60; e++) { double p = Math.scalb(1.0, e); l.add(p); l.add(p + Math.ulp(p)); l.add(p - Math.ulp(p)); }
        for (int k = 1; k <= 40; k++) l.add(Double.MIN_VALUE * k);
        Random r = new Random(20250611);
        while (l.size() < 900) {
            double d = Double.longBitsToDouble(r.nextLong());
            if (!Double.isNaN(d) && !Double.isInfinite(d)) l.add(d);
        }
        for (int k = 0; k < 40; k++) l.add(Double.longBitsToDouble(r.nextLong() & 0x800FFFFFFFFFFFFFL)); // subnormals
        for (int k = 0; k < 60; k++) l.add((double) (r.nextInt(2000000) - 1000000) / Math.pow(10, r.nextInt(8)));
        return l;
    }

    @Test
    void floatsMatchErl() {
        List<Double> ds = doubles();
        for (double d : ds) {
            check(new Call("erlang", "float_to_list", f(d), ECons.of(a("short"))), () -> str(FloatFormat.shortest(d)));
            check(new Call("erlang", "float_to_list", f(d)), () -> str(FloatFormat.legacy(d)));
        }
        List<Term> opts = new ArrayList<>();
        for (int n : new int[] { 0, 1, 2, 3, 4, 5, 10, 15, 17, 18, 19, 20, 25, 30, 60, 200, 253, 254, 300, -1 }) {
            opts.add(ECons.of(ETuple.of(a("decimals"), i(n))));
            opts.add(ECons.of(ETuple.of(a("decimals"), i(n)), a("compact")));
        }
        for (int n : new int[] { 0, 1, 2, 3, 5, 10, 17, 20, 30, 246, 247, 248, 249, 250, -1, -5 })
            opts.add(ECons.of(ETuple.of(a("scientific"), i(n))));
        opts.addAll(List.of(ECons.of(), ECons.of(a("compact")), ECons.of(a("short"), ETuple.of(a("decimals"), i(3))),
            ECons.of(ETuple.of(a("decimals"), i(3)), a("short")), ECons.of(ETuple.of(a("decimals"), i(3)), ETuple.of(a("scientific"), i(2))),
            ECons.of(ETuple.of(a("decimals"), f(1.0))), ECons.of(ETuple.of(a("foo"), i(1))), new ECons(a("compact"), a("short")),
            a("foo"), ECons.of(ETuple.of(a("decimals"), big("100000000000000000000")))));
        for (int k = 0; k < ds.size(); k += 4) {
            double d = ds.get(k);
            for (Term o : opts) check(new Call("erlang", "float_to_list", f(d), o), () -> str(FloatFormat.format(d, o)));
        }
        for (double d : new double[] { 1e20, 1e21, 123456789012345678.0, -0.0, -0.4, -0.6, 0.5, 1.5, 2.5, -2.5, 0.05, 0.95, 9.5 })
            for (Term o : opts) check(new Call("erlang", "float_to_list", f(d), o), () -> str(FloatFormat.format(d, o)));
        check(new Call("erlang", "float_to_list", i(1), ECons.of(a("short"))), () -> { throw org.jbeam.runtime.ErlangException.badarg(); });
        parsing(ds);
        compare();
    }

    private void parsing(List<Double> ds) {
        List<String> ss = new ArrayList<>(List.of("1,5", "1.5\0abc", "1.0e400", "-1.0e400", "1.0e-400", "+1.5", "-1.5", " 1.5",
            "1.5 ", "1.e5", "01.5", "1.5e", "1.5e+", "1.5E-3", "1..5", "1", "1e5", ".5", "-.5", "1.5e+05", "1.5e0005", "0.0",
            "-0.0", "1.5e-330", "2.2250738585072011e-308", "1.7976931348623158e308", "1.7976931348623159e308", "1,5e3",
            "1.5,", "", "-", "+", "1.0e", "1.0E+1", "1.0e-1", "1.0e--1", "1.0e++1", "1.0f", "1.0d", "0x1.0p3", "Infinity",
            "NaN", "inf", "1.0e99999999999999999999", "1.0e-99999999999999999999", "+-1.0", "--1.0", "1.0.0", "1.0e1.0",
            "00000000000000000000.000000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124", "4.9406564584124654e-324", "2.4703282292062327e-324",
            "2.4703282292062328e-324", "9007199254740993.0", "1.0e23", "8.98846567431158e307", "1.5\u00e9", "\u00bd.0",
            "1.0 e5", "1.0e 5", "1.0e+ 5", "\t1.0", "1.0\n"));
        for (int k = 0; k < ds.size(); k += 3) ss.add(FloatFormat.shortest(ds.get(k)));
        for (int k = 1; k < ds.size(); k += 7) ss.add(FloatFormat.legacy(ds.get(k)));
        for (String s : ss)
            check(new Call("erlang", "list_to_float", str(s)), () -> new EFloat(FloatFormat.parseFloat(s)));
    }

    private void compare() {
        List<String> erl = ErlOracle.run(calls);
        List<String> bad = new ArrayList<>();
        for (int k = 0; k < calls.size(); k++) {
            if (!erl.get(k).equals(java.get(k))) {
                Call c = calls.get(k);
                bad.add(c.function() + TermPrinter.print(ECons.of(c.args())) + "\n   erl:  " + erl.get(k) + "\n   java: " + java.get(k));
            }
        }
        System.out.println("FloatFormatTest: " + calls.size() + " calls, " + bad.size() + " mismatches");
        bad.stream().limit(40).forEach(System.out::println);
        assertEquals(0, bad.size(), "mismatches with erl (see output)");
    }
}
