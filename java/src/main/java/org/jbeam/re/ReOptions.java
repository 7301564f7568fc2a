package org.jbeam.re;

import org.jbeam.bindings.pcre2.Pcre2;
import org.jbeam.term.*;

/**
 * A parsed {@code re} option list: the counterpart of {@code parse_options()} in OTP's
 * erl_bif_re.c. Compile options become PCRE2 compile bits, run options PCRE2 match bits;
 * {@code flags} records which kinds of options were seen. Options OTP 25 (PCRE 8.44) does not
 * know, such as {@code {newline, nul}}, are rejected like OTP 25 rejects them.
 */
public final class ReOptions {
    public static final int UNIQUE_COMPILE_OPT = 1, UNIQUE_EXEC_OPT = 2, UNICODE = 4, STARTOFFSET = 8,
            CAPTURE_OPT = 16, GLOBAL = 32, REPORT_ERRORS = 64, MATCH_LIMIT = 128, MATCH_LIMIT_RECURSION = 256;

    static final EAtom CAPTURE = EAtom.of("capture"), OFFSET = EAtom.of("offset"), MATCH_LIMIT_A = EAtom.of("match_limit"),
            MATCH_LIMIT_RECURSION_A = EAtom.of("match_limit_recursion"), NEWLINE = EAtom.of("newline"),
            INDEX = EAtom.of("index"), LIST = EAtom.of("list"), BINARY = EAtom.of("binary"),
            ALL = EAtom.of("all"), NONE = EAtom.of("none"), FIRST = EAtom.of("first"),
            ALL_BUT_FIRST = EAtom.of("all_but_first"), ALL_NAMES = EAtom.of("all_names"),
            GLOBAL_A = EAtom.of("global"), UNICODE_A = EAtom.of("unicode"), ANCHORED_A = EAtom.of("anchored"),
            NOTEMPTY_ATSTART_A = EAtom.of("notempty_atstart");

    /** PCRE2 compile option bits. */
    public int compile;
    /** PCRE2_NEWLINE_* or 0 when not given. */
    public int newline;
    /** PCRE2_BSR_* or 0 when not given. */
    public int bsr;
    /** PCRE2 match option bits. */
    public int match;
    public int flags;
    public int startOffset;
    /** {@code {capture, Values, Type}}: the last capture option given (Type defaults to index). */
    public Term captureValues, captureType;
    public int matchLimit, matchLimitRecursion;

    public boolean has(int flag) { return (flags & flag) != 0; }

    /** Parses an option list; null when it is malformed or has an unknown option (OTP: badarg, cause badopt). */
    public static ReOptions parse(Term list) {
        ReOptions po = new ReOptions();
        Term l = list;
        for (; l instanceof ECons c; l = c.tail) {
            Term item = c.head;
            if (item instanceof ETuple tp) {
                if (tp.arity() != 2 || !(tp.get(0) instanceof EAtom key)) {
                    if (tp.arity() == 3 && tp.get(0) == CAPTURE) {
                        po.captureValues = tp.get(1);
                        po.captureType = tp.get(2);
                        po.flags |= CAPTURE_OPT | UNIQUE_EXEC_OPT;
                        continue;
                    }
                    return null;
                }
                Term v = tp.get(1);
                switch (key.name) {
                    case "capture" -> {
                        po.captureValues = v;
                        po.captureType = INDEX;
                        po.flags |= CAPTURE_OPT | UNIQUE_EXEC_OPT;
                    }
                    case "offset" -> {
                        int x = termToInt(v);
                        if (x < 0) return null;
                        po.startOffset = x;
                        po.flags |= UNIQUE_EXEC_OPT | STARTOFFSET;
                    }
                    case "match_limit" -> {
                        int x = termToInt(v);
                        if (x < 0) return null;
                        po.matchLimit = x;
                        po.flags |= UNIQUE_EXEC_OPT | MATCH_LIMIT;
                    }
                    case "match_limit_recursion" -> {
                        int x = termToInt(v);
                        if (x < 0) return null;
                        po.matchLimitRecursion = x;
                        po.flags |= UNIQUE_EXEC_OPT | MATCH_LIMIT_RECURSION;
                    }
                    case "newline" -> {
                        int nl = newlineOf(v);
                        if (nl == 0) return null;
                        po.newline = nl;
                    }
                    default -> { return null; }
                }
            } else if (item instanceof EAtom a) {
                switch (a.name) {
                    case "anchored" -> { po.compile |= Pcre2.ANCHORED; po.match |= Pcre2.ANCHORED; }
                    case "notempty" -> po.exec(Pcre2.NOTEMPTY);
                    case "notempty_atstart" -> po.exec(Pcre2.NOTEMPTY_ATSTART);
                    case "notbol" -> po.exec(Pcre2.NOTBOL);
                    case "noteol" -> po.exec(Pcre2.NOTEOL);
                    case "no_start_optimize" -> po.comp(Pcre2.NO_START_OPTIMIZE);
                    case "caseless" -> po.comp(Pcre2.CASELESS);
                    case "dollar_endonly" -> po.comp(Pcre2.DOLLAR_ENDONLY);
                    case "dotall" -> po.comp(Pcre2.DOTALL);
                    case "extended" -> po.comp(Pcre2.EXTENDED);
                    case "firstline" -> po.comp(Pcre2.FIRSTLINE);
                    case "multiline" -> po.comp(Pcre2.MULTILINE);
                    case "no_auto_capture" -> po.comp(Pcre2.NO_AUTO_CAPTURE);
                    case "dupnames" -> po.comp(Pcre2.DUPNAMES);
                    case "ungreedy" -> po.comp(Pcre2.UNGREEDY);
                    case "ucp" -> po.comp(Pcre2.UCP);
                    case "never_utf" -> po.comp(Pcre2.NEVER_UTF);
                    case "report_errors" -> po.flags |= UNIQUE_EXEC_OPT | REPORT_ERRORS;
                    case "unicode" -> { po.compile |= Pcre2.UTF; po.flags |= UNIQUE_COMPILE_OPT | UNICODE; }
                    case "global" -> po.flags |= UNIQUE_EXEC_OPT | GLOBAL;
                    case "bsr_anycrlf" -> po.bsr = Pcre2.BSR_ANYCRLF;
                    case "bsr_unicode" -> po.bsr = Pcre2.BSR_UNICODE;
                    default -> { return null; }
                }
            } else return null;
        }
        return l == ENil.NIL ? po : null;
    }

    private void exec(int bit) { match |= bit; flags |= UNIQUE_EXEC_OPT; }
    private void comp(int bit) { compile |= bit; flags |= UNIQUE_COMPILE_OPT; }

    /** OTP's term_to_int on 64-bit: a small integer in [0, INT_MAX], else -1. */
    static int termToInt(Term t) {
        return t instanceof ESmall s && s.value >= 0 && s.value <= Integer.MAX_VALUE ? (int) s.value : -1;
    }

    /** PCRE2_NEWLINE_* for an OTP 25 newline spec, 0 if unknown ({@code nul} is not in OTP 25). */
    static int newlineOf(Term v) {
        if (!(v instanceof EAtom a)) return 0;
        return switch (a.name) {
            case "cr" -> Pcre2.NEWLINE_CR;
            case "crlf" -> Pcre2.NEWLINE_CRLF;
            case "lf" -> Pcre2.NEWLINE_LF;
            case "anycrlf" -> Pcre2.NEWLINE_ANYCRLF;
            case "any" -> Pcre2.NEWLINE_ANY;
            default -> 0;
        };
    }

    /** {@code re:copt/1}: options that only affect compilation (stripped by re:grun/3 when asked). */
    static boolean copt(Term t) {
        if (!(t instanceof EAtom a)) return false;
        return switch (a.name) {
            case "caseless", "no_start_optimize", "never_utf", "ucp", "dollar_endonly", "dotall", "extended",
                 "firstline", "multiline", "no_auto_capture", "dupnames", "ungreedy", "unicode" -> true;
            default -> false;
        };
    }
}
