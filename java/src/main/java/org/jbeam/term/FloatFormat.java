package org.jbeam.term;

/**
 * Float to text exactly as OTP prints it. {@link #shortest} is the form of
 * {@code float_to_list(F, [short])} and {@code io_lib:format("~w")}: the shortest digit string
 * that reads back to the same double, in OTP's layout.
 */
public final class FloatFormat {
    private FloatFormat() {}

    /** Shortest round-trip form in OTP's layout (e.g. {@code 1.0}, {@code 0.1}, {@code 1.0e10}, {@code 1.0e-5}). */
    public static String shortest(double d) {
        // JDK 19+ Double.toString yields the shortest round-trip digits; re-layout to OTP's style.
        String s = Double.toString(d);
        boolean neg = s.startsWith("-");
        if (neg) s = s.substring(1);
        String digits; int exp; // value = 0.digits * 10^exp  (digits without leading zeros)
        int e = s.indexOf('E');
        String mant = e >= 0 ? s.substring(0, e) : s;
        int ex = e >= 0 ? Integer.parseInt(s.substring(e + 1)) : 0;
        int dot = mant.indexOf('.');
        String intPart = mant.substring(0, dot), frac = mant.substring(dot + 1);
        String all = intPart + frac;
        int pointPos = intPart.length() + ex; // position of decimal point within 'all'
        int lead = 0;
        while (lead < all.length() - 1 && all.charAt(lead) == '0') lead++;
        all = all.substring(lead); pointPos -= lead;
        int end = all.length();
        while (end > 1 && all.charAt(end - 1) == '0') end--;
        digits = all.substring(0, end);
        exp = pointPos;
        if (digits.equals("0")) return (neg ? "-" : "") + "0.0";
        // OTP (io_lib_format / float_to_list short): plain notation when 0 < exp <= 21 style?
        // Choose OTP's rule: use scientific when exponent (of d.ddd form) < -4 or >= 21? OTP picks the shorter.
        int sciExp = exp - 1;
        String plain = plain(digits, exp);
        String sci = digits.charAt(0) + "." + (digits.length() > 1 ? digits.substring(1) : "0") + "e" + sciExp;
        String r = plain.length() <= sci.length() ? plain : sci;
        return (neg ? "-" : "") + r;
    }

    private static String plain(String digits, int exp) {
        StringBuilder sb = new StringBuilder();
        if (exp <= 0) {
            sb.append("0.");
            for (int i = 0; i < -exp; i++) sb.append('0');
            sb.append(digits);
        } else if (exp >= digits.length()) {
            sb.append(digits);
            for (int i = digits.length(); i < exp; i++) sb.append('0');
            sb.append(".0");
        } else {
            sb.append(digits, 0, exp).append('.').append(digits, exp, digits.length());
        }
        return sb.toString();
    }
}
