package org.jbeam.term;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

import org.jbeam.runtime.ErlangException;

/**
 * Float to text exactly as OTP 25 prints it (erts bif.c do_float_to_charbuf):
 * <ul>
 * <li>{@link #shortest}: {@code float_to_list(F, [short])}, {@code io_lib:format("~w")} — the Ryu
 *     shortest round-trip digits laid out by OTP's modified MS-STL {@code to_chars}
 *     (erts/emulator/ryu/to_chars.h);</li>
 * <li>{@link #fixed}: {@code {decimals, N}} (sys_double_to_chars_fast: round-half-away fast path
 *     for |f| &le; 2^53 and N &lt; 19, exact {@code %.*f} otherwise);</li>
 * <li>{@link #scientific}: {@code {scientific, N}} and the default {@code float_to_list/1}
 *     ({@code %.20e}), exact round-half-even as glibc printf.</li>
 * </ul>
 * Parsing ({@code list_to_float}) lives in {@link FloatParse}.
 */
public final class FloatFormat {
    private FloatFormat() {}

    /** OTP formats into a 256-byte buffer; a result of 256 or more chars is badarg. */
    static final int BUF_SIZE = 256;

    /** {@code list_to_float} parsing; see {@link FloatParse#parseFloat}. */
    public static double parseFloat(String s) { return FloatParse.parseFloat(s); }

    // ---------------------------------------------------------------- short (Ryu)

    /** Shortest round-trip form in OTP's layout ({@code 1.0}, {@code 0.1}, {@code 1.0e10}, {@code 1.0e-5}). */
    public static String shortest(double d) {
        boolean neg = Double.doubleToRawLongBits(d) < 0;
        if (d == 0.0) return neg ? "-0.0" : "0.0";
        double a = Math.abs(d);
        // JDK 19+ Double.toString gives the shortest round-trip digits (closest, ties even), except
        // that a 1-digit shortest may be rendered as the closest 2-digit decimal (4.9E-324).
        BigDecimal bd = new BigDecimal(Double.toString(a)).stripTrailingZeros();
        long out = bd.unscaledValue().longValueExact();
        int exp = -bd.scale();
        if (out >= 10 && out <= 99) {
            long best = -1; int bestExp = exp + 1;
            BigDecimal exact = new BigDecimal(a), bestDist = null;
            for (long c = out / 10; c <= out / 10 + 1; c++) {
                BigDecimal cand = BigDecimal.valueOf(c, -(exp + 1));
                if (cand.doubleValue() != a) continue;
                BigDecimal dist = cand.subtract(exact).abs();
                int cmp = bestDist == null ? -1 : dist.compareTo(bestDist);
                if (cmp < 0 || (cmp == 0 && c % 2 == 0)) { best = c; bestDist = dist; }
            }
            if (best >= 0) {
                out = best;
                exp = bestExp;
                if (out == 10) { out = 1; exp++; }
            }
        }
        return toChars(out, exp, neg);
    }

    /** OTP's to_chars: {@code output * 10^ryuExp}, output without trailing zeros. */
    static String toChars(long output, int ryuExp, boolean neg) {
        String digits = Long.toString(output);
        int olength = digits.length();
        int sciExp = ryuExp + olength - 1;
        int lower, upper;
        if (olength == 1) { lower = -4; upper = 2; }
        else if (sciExp >= 10) { lower = -(olength + 2); upper = 2; }
        else { lower = -(olength + 2); upper = 1; }
        boolean fixed = false;
        if (lower <= ryuExp && ryuExp <= upper) {
            fixed = !((output >= (1L << 53) && ryuExp == 0)
                    || (output > (1L << 52) / 5 && ryuExp == 1)
                    || (output > (1L << 51) / 25 && ryuExp == 2));
        }
        StringBuilder sb = new StringBuilder(32);
        if (neg) sb.append('-');
        if (fixed) {
            int whole = olength + ryuExp;
            if (ryuExp >= 0) {
                sb.append(digits);
                for (int i = 0; i < ryuExp; i++) sb.append('0');
                sb.append(".0");
            } else if (whole > 0) {
                sb.append(digits, 0, whole).append('.').append(digits, whole, olength);
            } else {
                sb.append("0.");
                for (int i = 0; i < -whole; i++) sb.append('0');
                sb.append(digits);
            }
        } else {
            sb.append(digits.charAt(0)).append('.');
            if (olength > 1) sb.append(digits, 1, olength); else sb.append('0');
            sb.append('e').append(sciExp);
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- float_to_list/2 options

    /**
     * {@code float_to_list(F, Options)} text, options parsed as OTP does (the last format option
     * wins; {@code compact} only affects {@code decimals}). Throws badarg like OTP.
     */
    public static String format(double d, Term options) {
        int decimals = 20;
        boolean compact = false;
        int fmt = 0; // 0 legacy, 1 short, 2 fixed, 3 scientific
        Term l = options;
        for (; l instanceof ECons c; l = c.tail) {
            Term o = c.head;
            if (o == EAtom.of("compact")) { compact = true; continue; }
            if (o == EAtom.of("short")) { fmt = 1; continue; }
            if (o instanceof ETuple t && t.arity() == 2 && t.get(1) instanceof ESmall n) {
                long v = n.value;
                decimals = v > 100_000 ? 100_000 : v < -100_000 ? -100_000 : (int) v;
                if (t.get(0) == EAtom.of("decimals")) { fmt = 2; continue; }
                if (t.get(0) == EAtom.of("scientific")) { fmt = 3; continue; }
            }
            throw ErlangException.badarg();
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        String s = switch (fmt) {
            case 1 -> shortest(d);
            case 2 -> fixed(d, decimals, compact);
            default -> scientific(d, decimals);
        };
        if (s == null || s.isEmpty()) throw ErlangException.badarg();
        return s;
    }

    /** {@code float_to_list/1}: {@code "%.20e"}. */
    public static String legacy(double d) { return scientific(d, 20); }

    /** C {@code "%.*e"} (negative precision means 6); null when it would not fit OTP's buffer. */
    public static String scientific(double d, int precision) {
        if (precision < 0) precision = 6;
        if (precision > BUF_SIZE) return null;
        boolean neg = Double.doubleToRawLongBits(d) < 0;
        StringBuilder sb = new StringBuilder(precision + 8);
        if (neg) sb.append('-');
        String digits;
        int e10;
        if (d == 0.0) {
            digits = "0";
            e10 = 0;
        } else {
            BigDecimal r = new BigDecimal(Math.abs(d)).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
            digits = r.unscaledValue().toString();
            e10 = digits.length() - 1 - r.scale();
            if (digits.length() > precision + 1) digits = digits.substring(0, precision + 1); // only zeros dropped
        }
        sb.append(digits.charAt(0));
        if (precision > 0) {
            sb.append('.').append(digits, 1, digits.length());
            for (int i = digits.length(); i <= precision; i++) sb.append('0');
        }
        sb.append('e').append(e10 < 0 ? '-' : '+');
        int ae = Math.abs(e10);
        if (ae < 10) sb.append('0');
        sb.append(ae);
        return sb.length() >= BUF_SIZE ? null : sb.toString();
    }

    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };

    /** sys_double_to_chars_fast: {@code {decimals, N}} with optional compact; null on failure. */
    public static String fixed(double f, int decimals, boolean compact) {
        if (decimals < 0 || decimals > BUF_SIZE) return null;
        boolean neg = Double.doubleToRawLongBits(f) < 0;
        double af = Math.abs(f);
        StringBuilder sb = new StringBuilder(40);
        if (af > 0x1p53 || decimals >= POW10.length) {
            // "%.*f", exact with round-half-even like glibc
            if (neg) sb.append('-');
            sb.append(new BigDecimal(af).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString());
            if (sb.length() >= BUF_SIZE) return null;
            if (compact) trimZeros(sb);
            return sb.toString();
        }
        long intPart;
        String frac = null;
        if (decimals > 0) {
            double intF = Math.floor(af);
            double fracF = Arith.cRound((af - intF) * POW10[decimals]);
            intPart = (long) intF;
            long fracPart = (long) fracF;
            if (fracF >= POW10[decimals]) { intPart++; fracPart = 0; }
            String fs = Long.toString(fracPart);
            frac = "0".repeat(decimals - fs.length()) + fs;
        } else {
            intPart = (long) Arith.cRound(af);
        }
        if (neg) sb.append('-');
        sb.append(intPart);
        if (frac != null) {
            sb.append('.').append(frac);
            if (compact) trimZeros(sb);
        }
        return sb.toString();
    }

    /** OTP's find_first_trailing_zero: drop trailing zeros, but keep one after a '.'. */
    private static void trimZeros(StringBuilder sb) {
        int p = sb.length();
        while (p > 1 && sb.charAt(p - 1) == '0') p--;
        if (sb.charAt(p - 1) == '.') p++;
        sb.setLength(p);
    }
}
