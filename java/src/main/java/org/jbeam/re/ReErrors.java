package org.jbeam.re;

import java.util.HashMap;
import java.util.Map;

import org.jbeam.bindings.pcre2.Pcre2;

/**
 * Compile error reporting as OTP 25 does it: OTP 25 bundles PCRE 8.44, whose error texts and
 * offsets differ from PCRE2's. This maps a PCRE2 compile error code to PCRE 8.44's message and,
 * for the errors whose reported position moved between the libraries, adjusts the offset. Codes
 * without a PCRE1 counterpart keep PCRE2's own text.
 */
public final class ReErrors {
    private ReErrors() {}

    /** A compile error as OTP reports it: {@code {ErrString, Position}}. */
    public record Error(String message, long offset) {}

    private static final Map<Integer, String> PCRE1 = new HashMap<>();
    static {
        String[][] t = {
            {"101", "\\ at end of pattern"}, {"102", "\\c at end of pattern"},
            {"103", "unrecognized character follows \\"}, {"104", "numbers out of order in {} quantifier"},
            {"105", "number too big in {} quantifier"}, {"106", "missing terminating ] for character class"},
            {"107", "invalid escape sequence in character class"}, {"108", "range out of order in character class"},
            {"109", "nothing to repeat"}, {"110", "internal error: unexpected repeat"},
            {"111", "unrecognized character after (? or (?-"},
            {"112", "POSIX named classes are supported only within a class"},
            {"113", "POSIX collating elements are not supported"}, {"114", "missing )"},
            {"115", "reference to non-existent subpattern"}, {"117", "unknown option bit(s) set"},
            {"118", "missing ) after comment"}, {"119", "parentheses are too deeply nested"},
            {"120", "regular expression is too large"}, {"121", "failed to get memory"},
            {"122", "unmatched parentheses"}, {"123", "internal error: code overflow"},
            {"124", "malformed number or name after (?("}, {"125", "lookbehind assertion is not fixed length"},
            {"126", "a numbered reference must not be zero"},
            {"127", "conditional group contains more than two branches"},
            {"128", "assertion expected after (?( or (?(?C)"}, {"129", "digit expected after (?+"},
            {"130", "unknown POSIX class name"}, {"132", "this version of PCRE is compiled without UTF support"},
            {"133", "parentheses are too deeply nested (stack check)"},
            {"134", "character value in \\x{} or \\o{} is too large"},
            {"135", "lookbehind assertion is not fixed length"},
            {"136", "\\C not allowed in lookbehind assertion"},
            {"137", "PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u"},
            {"138", "number after (?C is > 255"}, {"139", "closing ) for (?C expected"},
            {"141", "unrecognized character after (?P"},
            {"142", "syntax error in subpattern name (missing terminator)"},
            {"143", "two named subpatterns have the same name"}, {"144", "group name must start with a non-digit"},
            {"145", "support for \\P, \\p, and \\X has not been compiled"}, {"146", "malformed \\P or \\p sequence"},
            {"147", "unknown property name after \\P or \\p"},
            {"148", "subpattern name is too long (maximum 32 characters)"},
            {"149", "too many named subpatterns (maximum 10000)"}, {"150", "invalid range in character class"},
            {"151", "octal value is greater than \\377 in 8-bit non-UTF-8 mode"},
            {"152", "internal error: overran compiling workspace"},
            {"153", "internal error: previously-checked referenced subpattern not found"},
            {"154", "DEFINE group contains more than one branch"}, {"155", "missing opening brace after \\o"},
            {"156", "inconsistent NEWLINE options"},
            {"157", "\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number"},
            {"158", "(?R or (?[+-]digits must be followed by )"}, {"160", "(*VERB) not recognized or malformed"},
            {"161", "number is too big"}, {"162", "subpattern name expected"},
            {"164", "non-octal character in \\o{} (closing brace missing?)"},
            {"165", "different names for subpatterns of the same number are not allowed"},
            {"166", "(*MARK) must have an argument"}, {"167", "non-hex character in \\x{} (closing brace missing?)"},
            {"168", "\\c must be followed by an ASCII character"},
            {"169", "\\k is not followed by a braced, angle-bracketed, or quoted name"},
            {"171", "\\N is not supported in a class"},
            {"173", "disallowed Unicode code point (>= 0xd800 && <= 0xdfff)"},
            {"174", "setting UTF is disabled by the application"},
            {"176", "name is too long in (*MARK), (*PRUNE), (*SKIP), or (*THEN)"},
            {"177", "character value in \\u.... sequence is too large"},
            {"178", "digits missing in \\x{} or \\o{}"}, {"186", "regular expression is too complicated"},
            {"193", "PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u"},
        };
        for (String[] e : t) PCRE1.put(Integer.parseInt(e[0]), e[1]);
    }

    /** OTP 25's {@code {ErrString, Position}} for PCRE2 error {@code code} at {@code off} in {@code pat}. */
    public static Error translate(int code, long off, byte[] pat) {
        if (code <= Pcre2.ERROR_UTF8_ERR1 && code >= Pcre2.ERROR_UTF8_ERR21) return new Error("invalid UTF-8 string", off);
        String msg = PCRE1.get(code);
        if (msg == null) {
            msg = Pcre2.errorMessage(code);
            if (msg == null) msg = "Unknown error (" + code + ")";
            return new Error(msg, off);
        }
        int o = (int) Math.min(off, pat.length);
        switch (code) {
            case 114, 162 -> { // "(?" / "(?P" / "(?<" cut short by the end of the pattern
                int q = lastOpenQ(pat, o);
                if (q >= 0) {
                    if (q + 2 < pat.length && pat[q + 2] == '<' && code == 162 && o == q + 3)
                        return new Error("unrecognized character after (?<", o);
                    if (code == 114 && o == pat.length && optionLetters(pat, q + 2, o))
                        return new Error(o == q + 3 && pat[q + 2] == 'P' ? "unrecognized character after (?P"
                                : "unrecognized character after (? or (?-", o);
                }
            }
            case 115 -> {
                if (endsWith(pat, o, "\\g0") || endsWith(pat, o, "\\g{0}"))
                    return new Error("a numbered reference must not be zero", o - 1);
                int c = conditionStart(pat, o);
                if (c >= 0) {
                    if (c + 4 < pat.length && pat[c + 3] == '0' && pat[c + 4] == ')')
                        return new Error("invalid condition (?(0)", c + 5);
                    int close = indexOf(pat, (byte) ')', o);
                    return new Error(msg, close < 0 ? o : close + 1);
                }
                int i = o;
                while (i < pat.length && isWordByte(pat[i])) i++;
                return new Error(msg, i);
            }
            case 125 -> { int e = groupEnd(pat, o); return new Error(msg, e < 0 ? o : e); }
            case 154 -> { int e = groupEnd(pat, Math.max(0, o - 3)); return new Error(msg, e < 0 ? o : e); }
            case 143, 147, 150, 171, 137, 193 -> { return new Error(msg, Math.max(0, o - 1)); }
            case 128, 129 -> { return new Error(msg, o + 1); }
            default -> { }
        }
        return new Error(msg, off);
    }

    private static boolean isWordByte(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_';
    }

    private static boolean optionLetters(byte[] p, int from, int to) {
        for (int i = from; i < to; i++) if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') || p[i] == '-')) return false;
        return true;
    }

    private static boolean endsWith(byte[] p, int end, String s) {
        if (end < s.length()) return false;
        for (int i = 0; i < s.length(); i++) if (p[end - s.length() + i] != s.charAt(i)) return false;
        return true;
    }

    private static int indexOf(byte[] p, byte b, int from) {
        for (int i = from; i < p.length; i++) if (p[i] == b) return i;
        return -1;
    }

    /** Index of the last "(?" starting before {@code o}, or -1. */
    private static int lastOpenQ(byte[] p, int o) {
        for (int i = Math.min(o, p.length) - 2; i >= 0; i--) if (p[i] == '(' && p[i + 1] == '?') return i;
        return -1;
    }

    /** If {@code o} lies inside the condition of a "(?(" group (no ')' in between), its start; else -1. */
    private static int conditionStart(byte[] p, int o) {
        for (int i = Math.min(o, p.length - 1); i >= 2; i--) {
            if (p[i] == ')' && i != o) return -1;
            if (p[i] == '(' && p[i - 1] == '?' && p[i - 2] == '(') return i - 2;
        }
        return -1;
    }

    /** Index of the ')' closing the group opened at {@code open} (skipping escapes and classes), or -1. */
    private static int groupEnd(byte[] p, int open) {
        if (open >= p.length || p[open] != '(') return -1;
        int depth = 0;
        for (int i = open; i < p.length; i++) {
            byte b = p[i];
            if (b == '\\') { i++; continue; }
            if (b == '[') {
                int j = i + 1;
                if (j < p.length && p[j] == '^') j++;
                if (j < p.length && p[j] == ']') j++;
                for (; j < p.length && p[j] != ']'; j++) if (p[j] == '\\') j++;
                i = j;
                continue;
            }
            if (b == '(') depth++;
            else if (b == ')' && --depth == 0) return i;
        }
        return -1;
    }
}
