package org.jbeam.re;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntPredicate;

import org.jbeam.bindings.pcre2.Pcre2;

/**
 * PCRE character tables as OTP 25 builds them: its bundled PCRE uses ISO-8859-1 tables, so in
 * non-UCP mode {@code \w}, {@code [[:alpha:]]}, caseless matching etc. treat Latin-1 letters
 * (0xC0–0xFF, ª, µ, º) as letters, unlike PCRE2's default ASCII tables. Built like
 * {@code pcre2_maketables()} would in a Latin-1 locale (glibc's ctype classification).
 */
public final class ReTables {
    private ReTables() {}

    static boolean upper(int c) { return (c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7); }
    static boolean lower(int c) {
        return (c >= 'a' && c <= 'z') || c == 0xAA || c == 0xB5 || c == 0xBA || (c >= 0xDF && c <= 0xFF && c != 0xF7);
    }
    static boolean alpha(int c) { return upper(c) || lower(c); }
    static boolean digit(int c) { return c >= '0' && c <= '9'; }
    static boolean alnum(int c) { return alpha(c) || digit(c); }
    static boolean space(int c) { return (c >= 9 && c <= 13) || c == ' '; }
    static boolean xdigit(int c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
    static boolean graph(int c) { return (c >= 33 && c <= 126) || c >= 0xA0; }
    static boolean print(int c) { return graph(c) || c == ' '; }
    static boolean punct(int c) { return graph(c) && !alnum(c); }
    static boolean cntrl(int c) { return c < 32 || (c >= 127 && c <= 159); }
    static int toLower(int c) { return upper(c) ? c + 32 : c; }
    static int toUpper(int c) { return (c >= 'a' && c <= 'z') || (c >= 0xE0 && c <= 0xFE && c != 0xF7) ? c - 32 : c; }

    /** The 1088-byte table in pcre2_maketables() layout, with the given classification. */
    static byte[] build() {
        byte[] t = new byte[Pcre2.TABLES_LENGTH];
        for (int i = 0; i < 256; i++) {
            t[Pcre2.LCC_OFFSET + i] = (byte) toLower(i);
            t[Pcre2.FCC_OFFSET + i] = (byte) (lower(i) ? toUpper(i) : toLower(i));
        }
        int cb = Pcre2.CBITS_OFFSET;
        bits(t, cb + Pcre2.CBIT_DIGIT, ReTables::digit);
        bits(t, cb + Pcre2.CBIT_UPPER, ReTables::upper);
        bits(t, cb + Pcre2.CBIT_LOWER, ReTables::lower);
        bits(t, cb + Pcre2.CBIT_WORD, c -> alnum(c) || c == '_');
        bits(t, cb + Pcre2.CBIT_SPACE, ReTables::space);
        bits(t, cb + Pcre2.CBIT_XDIGIT, ReTables::xdigit);
        bits(t, cb + Pcre2.CBIT_GRAPH, ReTables::graph);
        bits(t, cb + Pcre2.CBIT_PRINT, ReTables::print);
        bits(t, cb + Pcre2.CBIT_PUNCT, ReTables::punct);
        bits(t, cb + Pcre2.CBIT_CNTRL, ReTables::cntrl);
        for (int i = 0; i < 256; i++) {
            int x = 0;
            if (space(i)) x += Pcre2.CTYPE_SPACE;
            if (alpha(i)) x += Pcre2.CTYPE_LETTER;
            if (lower(i)) x += Pcre2.CTYPE_LCLETTER;
            if (digit(i)) x += Pcre2.CTYPE_DIGIT;
            if (alnum(i) || i == '_') x += Pcre2.CTYPE_WORD;
            t[Pcre2.CTYPES_OFFSET + i] = (byte) x;
        }
        return t;
    }

    private static void bits(byte[] t, int base, IntPredicate p) {
        for (int i = 0; i < 256; i++) if (p.test(i)) t[base + i / 8] |= (byte) (1 << (i & 7));
    }

    private static volatile MemorySegment native_;

    /** The Latin-1 tables in native memory (allocated once, never freed: compile contexts point at them). */
    static MemorySegment latin1() {
        MemorySegment s = native_;
        if (s == null) {
            synchronized (ReTables.class) {
                if ((s = native_) == null) {
                    byte[] t = build();
                    s = Arena.global().allocate(t.length);
                    MemorySegment.copy(t, 0, s, ValueLayout.JAVA_BYTE, 0, t.length);
                    native_ = s;
                }
            }
        }
        return s;
    }
}
