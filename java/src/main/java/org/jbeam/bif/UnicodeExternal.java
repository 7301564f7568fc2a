package org.jbeam.bif;

import java.util.Arrays;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * {@code unicode:characters_to_binary/2} and {@code characters_to_list/2} for input encodings
 * other than latin1/unicode/utf8 (utf16, utf32 and their endian variants). OTP's BIF traps to
 * {@code unicode:characters_to_binary_int/2} (Erlang) for these; this is a port of that code
 * ({@code ml_map/3}, {@code do_i_utf16_big/1}, {@code cbv/2}, …) so results, including the shape
 * of Rest in {@code {error, _, Rest}}, match. Any failure inside it becomes badarg, as there.
 */
final class UnicodeExternal {
    private UnicodeExternal() {}

    private static final EAtom UTF16 = EAtom.of("utf16"), UTF32 = EAtom.of("utf32"), BIG = EAtom.of("big"), LITTLE = EAtom.of("little");
    private static final int LIMIT = 0x10FFFF;

    /** Input decoders: 16 or 32 bits, big or little endian. */
    private record Enc(boolean wide, boolean little) {}

    private static Enc enc(Term e) {
        if (e == UTF16) return new Enc(false, false);
        if (e == UTF32) return new Enc(true, false);
        if (e instanceof ETuple t && t.arity() == 2 && (t.get(0) == UTF16 || t.get(0) == UTF32) && (t.get(1) == BIG || t.get(1) == LITTLE)) {
            return new Enc(t.get(0) == UTF32, t.get(1) == LITTLE);
        }
        throw ErlangException.badarg();
    }

    static Term toBinary(Term data, Term e) {
        Enc en = enc(e);
        Object r = mlMap(data, en, new Acc(new byte[0]));
        return switch (r) {
            case Acc a -> EBitString.of(a.bytes);
            case Inc i -> ETuple.of(UnicodeBifs.INCOMPLETE, EBitString.of(i.acc), EBitString.of(i.rest));
            case Err x -> ETuple.of(EAtom.ERROR, EBitString.of(x.acc), x.rest);
            default -> throw new IllegalStateException();
        };
    }

    /** do_characters_to_list: via the binary, then decode the UTF-8. */
    static Term toList(Term data, Term e) {
        Term r = toBinary(data, e);
        if (r instanceof EBitString b) return UnicodeBifs.utf8ToList(b.array(), b.arrayOffset(), b.byteSize(), ENil.NIL);
        ETuple t = (ETuple) r;
        EBitString conv = (EBitString) t.get(1);
        return ETuple.of(t.get(0), UnicodeBifs.utf8ToList(conv.array(), conv.arrayOffset(), conv.byteSize(), ENil.NIL), t.get(2));
    }

    // Results of ml_map: Acc (a binary so far), Inc (incomplete: {{Rest, Missing}, Acc} state or final), Err.
    private record Acc(byte[] bytes) {}
    private record Inc(byte[] acc, byte[] rest, int missing) {}
    private record Err(byte[] acc, Term rest) {}

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static byte[] bytes(EBitString b) { return b.toByteArray(); }

    /** ml_map(Term, Fun, Accum); state is Acc or Inc (the {{Incomplete,Missing},Accum} form). */
    private static Object mlMap(Term t, Enc en, Object state) {
        while (true) {
            if (t == ENil.NIL) return state; // clauses 1 and 2
            if (t instanceof ECons c) {
                Term part = c.head, tail = c.tail;
                if (part instanceof EInteger) {
                    if (state instanceof Inc inc) return new Err(inc.acc, new ECons(EBitString.of(inc.rest), t));
                    Object r = funInt(part, ((Acc) state).bytes);
                    if (r instanceof Err x) return new Err(x.acc, new ECons(x.rest, tail));
                    state = r;
                    t = tail;
                    continue;
                }
                if (part instanceof EBitString pb && pb.isBinary()) {
                    if (state instanceof Inc inc) {
                        byte[] pbs = bytes(pb);
                        if (pbs.length >= inc.missing) {
                            byte[] newPart = concat(inc.rest, Arrays.copyOf(pbs, inc.missing));
                            EBitString trailing = pb.sub(inc.missing, pbs.length - inc.missing);
                            t = new ECons(EBitString.of(newPart), new ECons(trailing, tail));
                            state = new Acc(inc.acc);
                        } else {
                            state = new Inc(inc.acc, concat(inc.rest, pbs), inc.missing - pbs.length);
                            t = tail;
                        }
                        continue;
                    }
                    if (pb.byteSize() > 8192) {
                        t = new ECons(pb.sub(0, 8192), new ECons(pb.sub(8192, pb.byteSize() - 8192), tail));
                        continue;
                    }
                    Object r = funBin(pb, ((Acc) state).bytes, en);
                    if (r instanceof Err x) return new Err(x.acc, new ECons(x.rest, tail));
                    state = r;
                    t = tail;
                    continue;
                }
                if (part instanceof EList) {
                    Object r = mlMap(part, en, state);
                    if (r instanceof Err x) return new Err(x.acc, new ECons(x.rest, tail));
                    state = r;
                    t = tail;
                    continue;
                }
                throw ErlangException.badarg(); // function_clause in ml_map
            }
            if (t instanceof EBitString b && b.isBinary()) {
                if (state instanceof Inc inc) {
                    if (b.byteSize() >= inc.missing) {
                        t = ECons.of(EBitString.of(inc.rest), b);
                        state = new Acc(inc.acc);
                        continue;
                    }
                    return new Inc(inc.acc, concat(inc.rest, bytes(b)), inc.missing - b.byteSize());
                }
                if (b.byteSize() > 8192) {
                    t = ECons.of(b.sub(0, 8192), b.sub(8192, b.byteSize() - 8192));
                    continue;
                }
                return funBin(b, ((Acc) state).bytes, en);
            }
            throw ErlangException.badarg();
        }
    }

    /** The fun's integer clauses: encode to UTF-8 or {error, Accum, [Part]}. */
    private static Object funInt(Term part, byte[] acc) {
        if (part instanceof ESmall s && IoLists.validCodePoint(s.value)) {
            byte[] r = Arrays.copyOf(acc, acc.length + 4);
            int n = Utf8.encode((int) s.value, r, acc.length);
            return new Acc(Arrays.copyOf(r, n));
        }
        return new Err(acc, ECons.of(part));
    }

    /** The fun's binary clause: decode with the input encoding, append as UTF-8. */
    private static Object funBin(EBitString part, byte[] acc, Enc en) {
        byte[] a = bytes(part);
        int unit = en.wide ? 4 : 2;
        byte[] out = Arrays.copyOf(acc, acc.length + a.length * 2 + 4);
        int pos = acc.length, i = 0;
        while (i < a.length) {
            int cp = -1, used = 0;
            if (a.length - i >= unit) {
                if (en.wide) {
                    long v = en.little ? (a[i] & 0xFFL) | (a[i + 1] & 0xFFL) << 8 | (a[i + 2] & 0xFFL) << 16 | (a[i + 3] & 0xFFL) << 24
                            : (a[i + 3] & 0xFFL) | (a[i + 2] & 0xFFL) << 8 | (a[i + 1] & 0xFFL) << 16 | (a[i] & 0xFFL) << 24;
                    if (IoLists.validCodePoint(v)) { cp = (int) v; used = 4; }
                } else {
                    int w1 = u16(a, i, en.little);
                    if (w1 < 0xD800 || w1 > 0xDFFF) { cp = w1; used = 2; }
                    else if (w1 <= 0xDBFF && a.length - i >= 4) {
                        int w2 = u16(a, i + 2, en.little);
                        if (w2 >= 0xDC00 && w2 <= 0xDFFF) { cp = 0x10000 + ((w1 - 0xD800) << 10) + (w2 - 0xDC00); used = 4; }
                    }
                }
            }
            if (cp < 0) break;
            if (out.length < pos + 4) out = Arrays.copyOf(out, out.length * 2 + 4);
            pos = Utf8.encode(cp, out, pos);
            i += used;
        }
        byte[] conv = Arrays.copyOf(out, pos);
        if (i == a.length) return new Acc(conv);
        byte[] rest = Arrays.copyOfRange(a, i, a.length);
        int missing = cbv(en, rest);
        if (missing > 0) return new Inc(conv, rest, missing);
        return new Err(conv, part.sub(i, a.length - i));
    }

    private static int u16(byte[] a, int i, boolean little) {
        return little ? (a[i] & 0xFF) | (a[i + 1] & 0xFF) << 8 : (a[i] & 0xFF) << 8 | (a[i + 1] & 0xFF);
    }

    /** cbv/2: bytes missing for the truncated sequence at the start of {@code r}, or 0 for "false". */
    private static int cbv(Enc en, byte[] r) {
        int n = r.length;
        int b0 = n > 0 ? r[0] & 0xFF : 0, b1 = n > 1 ? r[1] & 0xFF : 0, b2 = n > 2 ? r[2] & 0xFF : 0;
        if (!en.wide && !en.little) {
            if (n == 1 && (b0 <= 215 || b0 >= 224)) return 1;
            if (n == 1 && (b0 >> 2) == 54) return 3;
            if (n == 2 && (b0 >> 2) == 54) return 2;
            if (n == 3 && (b0 >> 2) == 54 && (b2 >> 2) == 55) return 1;
            return 0;
        }
        if (!en.wide) {
            if (n == 1) return 1;
            if (n == 2 && (b1 >> 2) == 54) return 2;
            if (n == 3 && (b1 >> 2) == 54) return 1;
            return 0;
        }
        if (!en.little) {
            if (n == 1 && b0 == 0) return 3;
            if (n == 2 && b0 == 0 && b1 <= 16) return 2;
            if (n == 3 && b0 == 0 && b1 <= 16 && (b1 > 0 || b2 <= 215 || b2 >= 224)) return 1;
            return 0;
        }
        if (n == 1) return 3;
        if (n == 2) return 2;
        if (n == 3 && b1 == 255 && b2 == 0 && (b0 == 254 || b0 == 255)) return 0;
        if (n == 3 && b2 <= 16 && (b2 > 0 || b1 <= 215 || b1 >= 224)) return 1;
        return 0;
    }
}
