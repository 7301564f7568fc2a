package org.jbeam.term;

/**
 * Prints terms the way {@code io:format("~w")} and {@code erlang:display/1} do. Used for
 * runtime-generated text (error messages, erlang:display); Erlang code formats through OTP's io_lib.
 */
public final class TermPrinter {
    private TermPrinter() {}

    public static String print(Term t) {
        StringBuilder sb = new StringBuilder();
        print(sb, t);
        return sb.toString();
    }

    /**
     * The form of {@code erlang:display/1} (erts' own printer): printable lists and binaries as
     * strings, floats in {@code %e} form. Also used for the runtime's own reports.
     */
    public static String display(Term t) {
        StringBuilder sb = new StringBuilder();
        display(sb, t);
        return sb.toString();
    }

    private static boolean printableList(Term t) {
        if (!(t instanceof ECons)) return false;
        while (t instanceof ECons c) {
            if (!(c.head instanceof ESmall s) || !printable(s.value)) return false;
            t = c.tail;
        }
        return t == ENil.NIL;
    }

    private static boolean printable(long c) { return (c >= 32 && c <= 126) || (c >= 8 && c <= 13) || c == 27 || (c >= 160 && c <= 255); }

    private static void escaped(StringBuilder sb, long c) {
        switch ((int) c) {
            case '"' -> sb.append("\\\"");
            case '\\' -> sb.append("\\\\");
            case '\n' -> sb.append("\\n");
            case '\t' -> sb.append("\\t");
            case '\r' -> sb.append("\\r");
            case 8 -> sb.append("\\b");
            case 11 -> sb.append("\\v");
            case 12 -> sb.append("\\f");
            case 27 -> sb.append("\\e");
            default -> sb.appendCodePoint((int) c);
        }
    }

    private static void display(StringBuilder sb, Term t) {
        switch (t) {
            case ECons c when printableList(c) -> {
                sb.append('"');
                for (Term x = c; x instanceof ECons cc; x = cc.tail) escaped(sb, ((ESmall) cc.head).value);
                sb.append('"');
            }
            case EBitString b when b.isBinaryAligned() && b.byteSize() > 0 && printableBinary(b) -> {
                sb.append("<<\"");
                for (int i = 0; i < b.byteSize(); i++) escaped(sb, b.byteAt(i));
                sb.append("\">>");
            }
            case EFloat f -> sb.append(String.format(java.util.Locale.ROOT, "%.6e", f.value).replaceAll("e([+-])(\\d)$", "e$10$2"));
            // erts' printer quotes every atom that is not [a-z][A-Za-z0-9_]* (so also foo@bar).
            case EAtom a when a.name.indexOf('@') >= 0 && !needsQuotes(a.name) -> sb.append('\'').append(a.name).append('\'');
            default -> print(sb, t, true);
        }
    }

    private static boolean printableBinary(EBitString b) {
        for (int i = 0; i < b.byteSize(); i++) if (!printable(b.byteAt(i))) return false;
        return true;
    }

    public static void print(StringBuilder sb, Term t) { print(sb, t, false); }

    /** The ~w form; with {@code display}, elements are printed in erlang:display's form. */
    private static void print(StringBuilder sb, Term t, boolean display) {
        switch (t) {
            case ESmall s -> sb.append(s.value);
            case EBig b -> sb.append(b.value);
            case EFloat f -> sb.append(FloatFormat.shortest(f.value));
            // erts' printer (display) leaves reserved words such as fun and or unquoted.
            case EAtom a when display && RESERVED.contains(a.name) -> sb.append(a.name);
            case EAtom a -> atom(sb, a);
            case ENil n -> sb.append("[]");
            case ECons c -> {
                sb.append('[');
                Term x = c;
                boolean first = true;
                while (x instanceof ECons cc) {
                    if (!first) sb.append(',');
                    element(sb, cc.head, display);
                    first = false;
                    x = cc.tail;
                }
                if (!(x instanceof ENil)) { sb.append('|'); element(sb, x, display); }
                sb.append(']');
            }
            case ETuple tu -> {
                sb.append('{');
                for (int i = 0; i < tu.arity(); i++) { if (i > 0) sb.append(','); element(sb, tu.get(i), display); }
                sb.append('}');
            }
            case EMap m -> {
                sb.append("#{");
                for (int i = 0; i < m.size(); i++) {
                    if (i > 0) sb.append(',');
                    element(sb, m.keyAt(i), display); sb.append(display ? "=>" : " => "); element(sb, m.valueAt(i), display);
                }
                sb.append('}');
            }
            case EBitString b -> {
                sb.append("<<");
                int n = b.byteSize();
                for (int i = 0; i < n; i++) { if (i > 0) sb.append(','); sb.append(b.byteAt(i)); }
                if (b.extraBits() != 0) {
                    if (n > 0) sb.append(',');
                    sb.append(b.byteAt(n) >> (8 - b.extraBits())).append(':').append(b.extraBits());
                }
                sb.append(">>");
            }
            case EPid p -> sb.append('<').append(p.node == EAtom.NONODE ? 0 : p.node.index).append('.').append(p.number).append('.').append(p.serial).append('>');
            case EPort p -> sb.append("#Port<0.").append(p.id).append('>');
            case ERef r -> {
                sb.append("#Ref<0");
                for (int i = r.idCount() - 1; i >= 0; i--) sb.append('.').append(r.id(i) & 0xFFFFFFFFL);
                sb.append('>');
            }
            case EExportFun f -> { sb.append("fun "); atom(sb, f.module); sb.append(':'); atom(sb, f.function); sb.append('/').append(f.arity); }
            case ELocalFun f -> { sb.append("#Fun<"); sb.append(f.module.name).append('.').append(f.index).append('.').append(f.oldUniq).append('>'); }
            default -> sb.append(t.getClass().getSimpleName());
        }
    }

    private static void element(StringBuilder sb, Term t, boolean display) {
        if (display) display(sb, t); else print(sb, t, false);
    }

    /** Appends an atom, quoted when OTP would quote it. */
    public static void atom(StringBuilder sb, EAtom a) {
        String s = a.name;
        if (needsQuotes(s)) {
            sb.append('\'');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '\'' -> sb.append("\\'");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    case '\r' -> sb.append("\\r");
                    case '\f' -> sb.append("\\f");
                    case '\b' -> sb.append("\\b");
                    case 0x1B -> sb.append("\\e");
                    case 0x7F -> sb.append("\\d");
                    case 0x0B -> sb.append("\\v");
                    default -> {
                        if (c < 32) sb.append('\\').append(Integer.toOctalString(c));
                        else sb.append(c);
                    }
                }
            }
            sb.append('\'');
        } else sb.append(s);
    }

    private static final java.util.Set<String> RESERVED = java.util.Set.of("after", "and", "andalso", "band", "begin",
            "bnot", "bor", "bsl", "bsr", "bxor", "case", "catch", "cond", "div", "end", "fun", "if", "let", "not", "of",
            "or", "orelse", "receive", "rem", "try", "when", "xor", "maybe", "else");

    static boolean needsQuotes(String s) {
        if (s.isEmpty()) return true;
        char c0 = s.charAt(0);
        if (!(c0 >= 'a' && c0 <= 'z') && !(c0 >= 0xDF && c0 <= 0xFF && c0 != 0xF7)) return true;
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@'
                    || (c >= 0xC0 && c <= 0xFF && c != 0xD7 && c != 0xF7);
            if (!ok) return true;
        }
        return RESERVED.contains(s);
    }
}
