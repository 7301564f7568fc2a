package org.jbeam.etf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Test helper: generates a corpus of varied Erlang terms as source text (one term per entry),
 * readable by {@code file:consult/1}: integers of every ETF width, bignums of many sizes, floats
 * including -0.0 and extremes, latin1 and unicode atoms, strings, improper lists, nested and big
 * tuples, binaries and bitstrings, small and 40-key maps.
 */
final class ErlCorpus {
    private final Random rnd;
    private final List<String> out = new ArrayList<>();

    ErlCorpus(long seed) { rnd = new Random(seed); }

    static List<String> build(long seed, int randomCount) {
        ErlCorpus c = new ErlCorpus(seed);
        c.fixed();
        for (int i = 0; i < randomCount; i++) c.out.add(c.term(3));
        return c.out;
    }

    private void fixed() {
        String[] ints = {"0", "1", "255", "256", "-1", "-256", "65535", "2147483647", "2147483648", "-2147483648",
                "-2147483649", "134217727", "134217728", "-134217728", "-134217729", "4294967295", "4294967296",
                "576460752303423487", "576460752303423488", "-576460752303423488", "-576460752303423489",
                "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                "18446744073709551615", "18446744073709551616"};
        for (String s : ints) out.add(s);
        for (int bits : new int[] {65, 100, 127, 128, 129, 200, 255 * 8, 255 * 8 + 1, 256 * 8, 3000, 10000}) {
            BigInteger v = new BigInteger(bits, rnd).setBit(bits - 1);
            out.add(v.toString());
            out.add(v.negate().toString());
        }
        for (String f : new String[] {"0.0", "-0.0", "1.0", "-1.5", "0.1", "1.0e300", "-1.0e-300", "1.7976931348623157e308",
                "-1.7976931348623157e308", "2.2250738585072014e-308", "4.9e-324", "-4.9e-324", "123456789.125", "3.141592653589793"})
            out.add(f);
        for (String a : new String[] {"a", "abc", "''", "'hello world'", "'héllo'", "'ÿ'", "'日本語'", "'Ā'", "'a\\'b'",
                "'" + "x".repeat(255) + "'", "'" + "é".repeat(255) + "'", "'" + "日".repeat(100) + "'", "true", "nonode@nohost", "'\\n'"})
            out.add(a);
        for (String s : new String[] {"[]", "\"abc\"", "\"\"", "[0,255]", "[256]", "[1,2|3]", "[a|b]", "[[]]", "[[],[[]]]",
                "[1,a,\"x\",{}]", "\"héllo\"", "[955,1000,128512]", "[-1,2,3]", "[1,2,3|[]]", "[1.5,2]"})
            out.add(s);
        out.add("\"" + "x".repeat(70000) + "\"");
        out.add(list(300, i -> Integer.toString(i % 256)));
        out.add(list(20, i -> "[" + i + "|" + i + "]"));
        for (String t : new String[] {"{}", "{a}", "{1,2,3}", "{{{{{}}}}}", "{[],{},<<>>,#{}}", "{a,{b,{c,{d,[e]}}}}"}) out.add(t);
        out.add("{" + String.join(",", java.util.Collections.nCopies(255, "x")) + "}");
        out.add("{" + String.join(",", java.util.Collections.nCopies(256, "1")) + "}");
        out.add(tuple(300, i -> Integer.toString(i)));
        for (String b : new String[] {"<<>>", "<<1,2,3>>", "<<\"abc\">>", "<<1:1>>", "<<1,2,3:4>>", "<<255:7>>", "<<0:8,1:1>>",
                "<<1:15>>"})
            out.add(b);
        out.add(bin(64)); out.add(bin(65)); out.add(bin(300));
        for (String m : new String[] {"#{}", "#{a => 1}", "#{1 => a, 1.0 => b}", "#{b => 1, a => 2, c => 3}",
                "#{[] => [], {} => {}, <<>> => <<>>, #{} => #{}}", "#{#{a => b} => #{c => d}}", "#{-1 => x, 1 => y, 0.5 => z, x => 1}"})
            out.add(m);
        out.add(map(32, i -> Integer.toString(i)));
        out.add(map(33, i -> Integer.toString(i)));
        out.add(map(40, i -> Integer.toString(i)));
        out.add(map(40, i -> "k" + i));
        out.add(map(40, i -> "<<" + i + ">>"));
        // a compressible term and a long list of atoms
        out.add(list(200, i -> "aaaa"));
        out.add(list(100, i -> "{x, " + i + ", \"str\"}"));
    }

    interface Gen { String at(int i); }

    private static String list(int n, Gen g) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) { if (i > 0) sb.append(','); sb.append(g.at(i)); }
        return sb.append(']').toString();
    }
    private static String tuple(int n, Gen g) { String l = list(n, g); return "{" + l.substring(1, l.length() - 1) + "}"; }
    private static String map(int n, Gen g) {
        StringBuilder sb = new StringBuilder("#{");
        for (int i = 0; i < n; i++) { if (i > 0) sb.append(','); sb.append(g.at(i)).append(" => ").append(i); }
        return sb.append('}').toString();
    }
    private String bin(int n) { return list(n, i -> Integer.toString(rnd.nextInt(256))).replace("[", "<<").replace("]", ">>"); }

    private String term(int depth) {
        int k = rnd.nextInt(depth <= 0 ? 6 : 11);
        switch (k) {
            case 0: return Long.toString(rnd.nextInt(300) - 20);
            case 1: return rnd.nextBoolean() ? Long.toString(rnd.nextLong() >> rnd.nextInt(64))
                    : new BigInteger(1 + rnd.nextInt(600), rnd).multiply(BigInteger.valueOf(rnd.nextBoolean() ? 1 : -1)).toString();
            case 2: return flt();
            case 3: return atom();
            case 4: {
                int n = rnd.nextInt(6);
                StringBuilder sb = new StringBuilder("<<");
                for (int i = 0; i < n; i++) { if (i > 0) sb.append(','); sb.append(rnd.nextInt(256)); }
                if (rnd.nextInt(3) == 0) { if (n > 0) sb.append(','); sb.append(rnd.nextInt(2)).append(":").append(1 + rnd.nextInt(7)); }
                return sb.append(">>").toString();
            }
            case 5: return "\"" + "abcxyz 019".substring(rnd.nextInt(5)) + "\"";
            case 6: case 7: return tuple(rnd.nextInt(5), i -> term(depth - 1));
            case 8: {
                String l = list(1 + rnd.nextInt(4), i -> term(depth - 1));
                return rnd.nextInt(3) == 0 ? l.substring(0, l.length() - 1) + "|" + term(0) + "]" : l;
            }
            case 9: {
                StringBuilder sb = new StringBuilder("#{");
                int n = rnd.nextInt(5);
                for (int i = 0; i < n; i++) { if (i > 0) sb.append(','); sb.append(term(depth - 1)).append(" => ").append(term(depth - 1)); }
                return sb.append('}').toString();
            }
            default: return list(rnd.nextInt(4), i -> Integer.toString(rnd.nextInt(256)));
        }
    }

    private String flt() {
        double d;
        do d = switch (rnd.nextInt(3)) {
            case 0 -> Double.longBitsToDouble(rnd.nextLong());
            case 1 -> rnd.nextGaussian() * 1000;
            default -> rnd.nextInt(2000) / 8.0 - 100;
        }; while (Double.isNaN(d) || Double.isInfinite(d));
        String s = Double.toString(Math.abs(d)).replace('E', 'e');
        if (s.contains("e") && !s.substring(0, s.indexOf('e')).contains(".")) s = s.replace("e", ".0e");
        return (d < 0 || (d == 0 && 1 / d < 0) ? "-" : "") + s;
    }

    private String atom() {
        String[] names = {"a", "ok", "error", "undefined", "zz_top", "héllo", "日本", "Ωmega", "with space", "x@y", "ÿþ", "Ā"};
        String n = names[rnd.nextInt(names.length)];
        return "'" + n + "'";
    }
}
