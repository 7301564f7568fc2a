package org.jbeam.etf;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * The textual float of the legacy FLOAT_EXT (minor_version 0): C's {@code "%.20e"} padded with NULs
 * to 31 bytes, and its parser ({@code sys_chars_to_double}: {@code [+-]digits[.,]digits[eE[+-]digits]}).
 */
final class FloatText {
    private FloatText() {}

    static final int SIZE = 31;

    /** Exactly what glibc's {@code sprintf("%.20e", d)} prints (exact binary value, round-half-even). */
    static String format20e(double d) {
        boolean neg = (Double.doubleToRawLongBits(d) < 0);
        double a = Math.abs(d);
        StringBuilder sb = new StringBuilder(28);
        if (neg) sb.append('-');
        if (a == 0.0) return sb.append("0.00000000000000000000e+00").toString();
        BigDecimal r = new BigDecimal(a).round(new MathContext(21, RoundingMode.HALF_EVEN));
        String digits = r.unscaledValue().toString();
        // value = digits * 10^-scale; exponent of the first digit:
        int exp = digits.length() - 1 - r.scale();
        while (digits.length() < 21) digits = digits + "0";
        if (digits.length() > 21) digits = digits.substring(0, 21); // trailing zeros only
        sb.append(digits.charAt(0)).append('.').append(digits, 1, 21).append('e');
        sb.append(exp < 0 ? '-' : '+');
        int ae = Math.abs(exp);
        if (ae < 10) sb.append('0');
        sb.append(ae);
        return sb.toString();
    }

    static void write(byte[] out, int pos, double d) {
        byte[] s = format20e(d).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(s, 0, out, pos, s.length);
        for (int i = s.length; i < SIZE; i++) out[pos + i] = 0;
    }

    /** Parses the 31-byte field; returns NaN when OTP would reject it. */
    static double parse(byte[] b, int pos) {
        int end = pos;
        while (end < pos + SIZE && b[end] != 0) end++;
        int i = pos;
        if (i < end && (b[i] == '+' || b[i] == '-')) i++;
        int start = i;
        while (i < end && isDigit(b[i])) i++;
        if (i == start || i >= end || (b[i] != '.' && b[i] != ',')) return Double.NaN;
        int dot = i++;
        start = i;
        while (i < end && isDigit(b[i])) i++;
        if (i == start) return Double.NaN;
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) i++;
            start = i;
            while (i < end && isDigit(b[i])) i++;
            if (i == start) return Double.NaN;
        }
        if (i != end) return Double.NaN;
        byte[] c = java.util.Arrays.copyOfRange(b, pos, end);
        c[dot - pos] = '.';
        double v = Double.parseDouble(new String(c, StandardCharsets.US_ASCII));
        return Double.isInfinite(v) ? Double.NaN : v;
    }

    private static boolean isDigit(byte c) { return c >= '0' && c <= '9'; }
}
