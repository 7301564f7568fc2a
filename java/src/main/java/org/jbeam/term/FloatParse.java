package org.jbeam.term;

import org.jbeam.runtime.ErlangException;

/**
 * Text to float as OTP 25's {@code list_to_float/1} and {@code binary_to_float/1}
 * (sys_chars_to_double in erts/emulator/sys/unix/sys_float.c): strict syntax
 * {@code [+-]digits(.|,)digits[(e|E)[+-]digits]}, the whole string, then strtod (correctly
 * rounded). Overflow is badarg, underflow gives 0.0 or a denormal. The C code sees a
 * NUL-terminated buffer, so text after a NUL character is ignored (as in OTP).
 */
public final class FloatParse {
    private FloatParse() {}

    /** Parses {@code s} (chars 0..255); throws badarg like OTP. */
    public static double parseFloat(String s) {
        int nul = s.indexOf('\0');
        if (nul >= 0) s = s.substring(0, nul);
        int i = 0, n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
        int start = i;
        while (i < n && isDigit(s.charAt(i))) i++;
        if (i == start) throw ErlangException.badarg();
        if (i >= n || (s.charAt(i) != '.' && s.charAt(i) != ',')) throw ErlangException.badarg();
        int dot = i++;
        start = i;
        while (i < n && isDigit(s.charAt(i))) i++;
        if (i == start) throw ErlangException.badarg();
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            start = i;
            while (i < n && isDigit(s.charAt(i))) i++;
            if (i == start) throw ErlangException.badarg();
        }
        if (i != n) throw ErlangException.badarg();
        String norm = s.charAt(dot) == ',' ? s.substring(0, dot) + '.' + s.substring(dot + 1) : s;
        double d = Double.parseDouble(norm);
        if (Double.isInfinite(d)) throw ErlangException.badarg();
        return d;
    }

    private static boolean isDigit(char c) { return c >= '0' && c <= '9'; }
}
