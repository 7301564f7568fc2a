package org.jbeam.bif;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.term.*;

/**
 * Test-only reader for Erlang term text: the literal subset of Erlang source used in the case
 * files (atoms, numbers incl. {@code 16#FF} and {@code $c}, strings, lists, tuples, maps,
 * binaries with {@code Int:Size}, {@code "str"} and {@code /utf8} segments) and everything
 * {@code io:format("~w")} prints for those.
 */
final class TermReader {
    private final String s;
    private int i;

    private TermReader(String s) { this.s = s; }

    static Term parse(String text) {
        TermReader r = new TermReader(text);
        Term t = r.term();
        r.ws();
        if (r.i != r.s.length()) throw r.err("trailing text");
        return t;
    }

    private IllegalArgumentException err(String m) {
        return new IllegalArgumentException(m + " at " + i + " in: " + s);
    }

    private void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }
    private char peek() { ws(); return i < s.length() ? s.charAt(i) : '\0'; }
    private boolean eat(String tok) { ws(); if (s.startsWith(tok, i)) { i += tok.length(); return true; } return false; }
    private void expect(String tok) { if (!eat(tok)) throw err("expected " + tok); }

    private Term term() {
        char c = peek();
        if (c == '[') return list();
        if (c == '{') {
            i++;
            List<Term> xs = new ArrayList<>();
            if (!eat("}")) { do xs.add(term()); while (eat(",")); expect("}"); }
            return ETuple.of(xs.toArray(new Term[0]));
        }
        if (c == '#') {
            expect("#{");
            List<Term> ks = new ArrayList<>(), vs = new ArrayList<>();
            if (!eat("}")) {
                do { ks.add(term()); expect("=>"); vs.add(term()); } while (eat(","));
                expect("}");
            }
            return EMap.of(ks.toArray(new Term[0]), vs.toArray(new Term[0]));
        }
        if (c == '<' && s.startsWith("<<", i)) return binary();
        if (c == '"') return IoLists.stringToCharlist(quoted('"'));
        if (c == '\'') return EAtom.of(quoted('\''));
        if (c == '$') { i++; return ESmall.of(charLit()); }
        if (c == '-' || Character.isDigit(c)) return number();
        if (Character.isLowerCase(c)) {
            int st = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '@')) i++;
            return EAtom.of(s.substring(st, i));
        }
        throw err("unexpected " + c);
    }

    private Term list() {
        expect("[");
        if (eat("]")) return ENil.NIL;
        List<Term> xs = new ArrayList<>();
        do xs.add(term()); while (eat(","));
        Term tail = eat("|") ? term() : ENil.NIL;
        expect("]");
        for (int k = xs.size() - 1; k >= 0; k--) tail = new ECons(xs.get(k), tail);
        return tail;
    }

    private Term number() {
        ws();
        boolean neg = false;
        if (s.charAt(i) == '-') { neg = true; i++; }
        if (s.charAt(i) == '$') { i++; int v = charLit(); return ESmall.of(neg ? -v : v); }
        int st = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
        String digits = s.substring(st, i);
        if (i < s.length() && s.charAt(i) == '#') {
            i++;
            int bst = i;
            while (i < s.length() && Character.isLetterOrDigit(s.charAt(i))) i++;
            BigInteger v = new BigInteger(s.substring(bst, i), Integer.parseInt(digits));
            return EInteger.of(neg ? v.negate() : v);
        }
        if (i + 1 < s.length() && s.charAt(i) == '.' && Character.isDigit(s.charAt(i + 1))) {
            i++;
            while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                i++;
                if (s.charAt(i) == '-' || s.charAt(i) == '+') i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
            }
            double d = Double.parseDouble(s.substring(st, i));
            return EFloat.of(neg ? -d : d);
        }
        BigInteger v = new BigInteger(digits);
        return EInteger.of(neg ? v.negate() : v);
    }

    private Term binary() {
        expect("<<");
        BitWriter w = new BitWriter();
        if (!eat(">>")) {
            do segment(w); while (eat(","));
            expect(">>");
        }
        return w.toBitString();
    }

    private void segment(BitWriter w) {
        List<Integer> vals = new ArrayList<>();
        boolean str = false;
        BigInteger big = null;
        if (peek() == '"') { str = true; quoted('"').codePoints().forEach(vals::add); }
        else big = ((EInteger) number()).bigValue();
        int size = 8;
        if (eat(":")) size = (int) ((ESmall) number()).value;
        String type = null;
        if (eat("/")) {
            int st = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '-')) i++;
            type = s.substring(st, i);
        }
        if (!str) vals = List.of(big.intValue());
        for (int v : vals) {
            if ("utf8".equals(type)) {
                byte[] b = new byte[4];
                int n = Utf8.encode(v, b, 0);
                for (int k = 0; k < n; k++) w.putByte(b[k] & 0xFF);
            } else if (str) w.putByte(v & 0xFF);
            else if (size > 0) {
                int nb = (size + 7) / 8;
                BigInteger m = big.and(BigInteger.ONE.shiftLeft(size).subtract(BigInteger.ONE)).shiftLeft(nb * 8 - size);
                byte[] raw = m.toByteArray(), b = new byte[nb];
                for (int k = 0; k < nb && k < raw.length; k++) b[nb - 1 - k] = raw[raw.length - 1 - k];
                w.putBits(new EBitString(b, 0, size));
            }
        }
    }

    private int charLit() {
        char c = s.charAt(i++);
        if (c != '\\') {
            if (Character.isHighSurrogate(c)) { i++; return Character.toCodePoint(c, s.charAt(i - 1)); }
            return c;
        }
        return escape();
    }

    private int escape() {
        char c = s.charAt(i++);
        switch (c) {
            case 'n': return '\n';
            case 't': return '\t';
            case 'r': return '\r';
            case 'e': return 27;
            case 'd': return 127;
            case 's': return ' ';
            case 'b': return '\b';
            case 'f': return '\f';
            case 'v': return 11;
            case 'x': {
                if (s.charAt(i) == '{') {
                    int end = s.indexOf('}', i);
                    int v = Integer.parseInt(s.substring(i + 1, end), 16);
                    i = end + 1;
                    return v;
                }
                int v = Integer.parseInt(s.substring(i, i + 2), 16);
                i += 2;
                return v;
            }
            default:
                if (c >= '0' && c <= '7') {
                    int v = c - '0';
                    for (int k = 0; k < 2 && i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7'; k++) v = v * 8 + (s.charAt(i++) - '0');
                    return v;
                }
                return c;
        }
    }

    private String quoted(char q) {
        ws();
        i++;
        StringBuilder sb = new StringBuilder();
        while (s.charAt(i) != q) {
            char c = s.charAt(i++);
            if (c == '\\') sb.appendCodePoint(escape()); else sb.append(c);
        }
        i++;
        return sb.toString();
    }
}
