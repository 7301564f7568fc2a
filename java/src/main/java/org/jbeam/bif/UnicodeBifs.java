package org.jbeam.bif;

import java.util.ArrayDeque;
import java.util.Arrays;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The BIFs of stdlib's {@code unicode} module in OTP 25 (erl_unicode.c):
 * {@code characters_to_binary/2}, {@code characters_to_list/2} and {@code bin_is_7bit/1}.
 * For input encodings latin1/unicode/utf8 this follows the C code step by step (so the
 * {@code {error, Converted, Rest}} and {@code {incomplete, Converted, Rest}} shapes match); for
 * utf16/utf32 input OTP traps to Erlang code in unicode.erl, ported in {@link UnicodeExternal}.
 * Unlike OTP, work is done in one go (OTP yields every few thousand characters; results for inputs
 * whose errors lie beyond such a yield point may differ in the Rest shape).
 */
public final class UnicodeBifs implements BifModule {
    private static final String M = "unicode";
    static final EAtom INCOMPLETE = EAtom.of("incomplete");

    @Override public void register(BifTable t) {
        t.bif2(M, "characters_to_binary", (p, d, e) -> charactersToBinary(d, e));
        t.bif2(M, "characters_to_list", (p, d, e) -> charactersToList(d, e));
        t.bif1(M, "bin_is_7bit", UnicodeBifs::binIs7bit);
    }

    public static Term binIs7bit(ErlProcess p, Term b) {
        if (!(b instanceof EBitString x) || !x.isBinary()) return EAtom.FALSE;
        byte[] a = x.array();
        for (int i = x.arrayOffset(), e = i + x.byteSize(); i < e; i++) if (a[i] < 0) return EAtom.FALSE;
        return EAtom.TRUE;
    }

    /** 1 for latin1, 0 for unicode/utf8, -1 for anything else (handled by the Erlang path). */
    private static int kind(Term enc) {
        if (enc == EAtom.LATIN1) return 1;
        if (enc == EAtom.UNICODE || enc == EAtom.UTF8) return 0;
        return -1;
    }

    public static Term charactersToBinary(Term data, Term enc) {
        int k = kind(enc);
        if (k < 0) return UnicodeExternal.toBinary(data, enc);
        boolean latin1 = k == 1;
        Term subject = data;
        if (data instanceof ECons c && c.head instanceof EBitString && c.tail == ENil.NIL) subject = c.head;
        need(subject, latin1);
        if (subject instanceof EBitString b && (latin1 ? binIs7bit(null, b) == EAtom.TRUE : Utf8.decodeStrict(b.array(), b.arrayOffset(), b.byteSize()) != null)) {
            return b;
        }
        Builder bld = new Builder(latin1);
        Term rest = bld.build(subject);
        Term bin = EBitString.of(Arrays.copyOf(bld.out, bld.pos));
        return bld.finish(bin, rest);
    }

    public static Term charactersToList(Term data, Term enc) {
        int k = kind(enc);
        if (k < 0) return UnicodeExternal.toList(data, enc);
        boolean latin1 = k == 1;
        if (data instanceof EBitString b && b.isBinary() && !latin1) return utf8BinaryToList(b);
        need(data, latin1);
        Builder bld = new Builder(latin1);
        Term rest = bld.build(data);
        Term list = utf8ToList(bld.out, 0, bld.pos, ENil.NIL);
        return bld.finish(list, rest);
    }

    /** utf8_to_list: the fast path of characters_to_list for a plain binary in utf8. */
    private static Term utf8BinaryToList(EBitString b) {
        byte[] a = b.array();
        int off = b.arrayOffset(), end = off + b.byteSize(), i = off;
        int state = Utf8.OK;
        while (i < end) {
            int n = Utf8.seqLen(a, i, end);
            if (n == -1) { state = Utf8.ERROR; break; }
            if (n == -2) { state = Utf8.INCOMPLETE; break; }
            i += n;
        }
        Term converted = utf8ToList(a, off, i - off, ENil.NIL);
        if (state == Utf8.OK) return converted;
        Term rest = b.sub(i - off, end - i);
        if (state == Utf8.INCOMPLETE && checkLeftovers(a, i, end - i) == 0) return ETuple.of(INCOMPLETE, converted, rest);
        return ETuple.of(EAtom.ERROR, converted, rest);
    }

    /** Decodes already validated UTF-8 to a list of code points ending in {@code tail}. */
    static Term utf8ToList(byte[] a, int off, int len, Term tail) {
        int[] cps = new int[len];
        int n = 0, i = off, end = off + len;
        while (i < end) {
            int b0 = a[i] & 0xFF;
            int sz = b0 < 0x80 ? 1 : (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : 4;
            cps[n++] = Utf8.decode(a, i, sz);
            i += sz;
        }
        Term r = tail;
        for (int j = n - 1; j >= 0; j--) r = new ECons(ESmall.of(cps[j]), r);
        return r;
    }

    /** check_leftovers: 0 if the bytes are a possibly valid but truncated UTF-8 sequence, else -1. */
    static int checkLeftovers(byte[] s, int off, int size) {
        int b0 = s[off] & 0xFF;
        if ((b0 & 0xE0) == 0xC0) return 0;
        if ((b0 & 0xF0) == 0xE0) {
            if (size < 2 || (size < 3 && (s[off + 1] & 0xC0) == 0x80)) return 0;
        } else if ((b0 & 0xF8) == 0xF0) {
            if (size < 2 || (size < 3 && (s[off + 1] & 0xC0) == 0x80)
                    || (size < 4 && (s[off + 1] & 0xC0) == 0x80 && (s[off + 2] & 0xC0) == 0x80)) return 0;
        }
        return -1;
    }

    /** utf8_need: validates the shape (badarg if not chardata) and returns the output size bound. */
    static long need(Term t, boolean latin1) {
        if (t == ENil.NIL) return 0;
        if (t instanceof EBitString b) return binNeed(b, latin1);
        if (!(t instanceof ECons)) throw ErlangException.badarg();
        long need = 0;
        ArrayDeque<Term> stack = new ArrayDeque<>();
        Term cur = t;
        while (true) {
            if (cur instanceof ECons c) {
                Term h = c.head;
                if (h instanceof EInteger) need += 4; // bignums are an error later, not badarg
                else if (h instanceof EBitString b) need += binNeed(b, latin1);
                else if (h instanceof ECons) { stack.push(c.tail); cur = h; continue; }
                else if (h != ENil.NIL) throw ErlangException.badarg();
                cur = c.tail;
            } else {
                if (cur instanceof EBitString b) need += binNeed(b, latin1);
                else if (cur != ENil.NIL) throw ErlangException.badarg();
                if (stack.isEmpty()) return need;
                cur = stack.pop();
            }
        }
    }

    private static long binNeed(EBitString b, boolean latin1) {
        if (!b.isBinary()) throw ErlangException.badarg();
        return latin1 ? 2L * b.byteSize() : b.byteSize();
    }

    /** do_build_utf8 with its state: output buffer, leftover bytes of a split UTF-8 sequence, error flag. */
    private static final class Builder {
        final boolean latin1;
        byte[] out = new byte[64];
        int pos;
        final byte[] leftover = new byte[4];
        int numLeftovers;
        boolean err;

        Builder(boolean latin1) { this.latin1 = latin1; }

        void ensure(int n) { if (pos + n > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, pos + n)); }

        /** build_utf8_return / build_list_return: wraps {@code converted} (binary or list). */
        Term finish(Term converted, Term rest) {
            if (err) {
                if (numLeftovers > 0) rest = ECons.of(EBitString.of(Arrays.copyOf(leftover, numLeftovers)), rest);
                return ETuple.of(EAtom.ERROR, converted, rest);
            }
            if (rest == ENil.NIL && numLeftovers != 0) {
                Term lb = EBitString.of(Arrays.copyOf(leftover, numLeftovers));
                return ETuple.of(checkLeftovers(leftover, 0, numLeftovers) != 0 ? EAtom.ERROR : INCOMPLETE, converted, lb);
            }
            return converted;
        }

        /** Converts a binary; returns NIL, or on error the undecoded rest of the binary. */
        Term buildBinary(EBitString b) {
            byte[] a = b.array();
            int off = b.arrayOffset(), size = b.byteSize();
            if (latin1) {
                ensure(2 * size);
                for (int i = off; i < off + size; i++) {
                    int x = a[i] & 0xFF;
                    if (x < 0x80) out[pos++] = (byte) x;
                    else { out[pos++] = (byte) (0xC0 | (x >> 6)); out[pos++] = (byte) (0x80 | (x & 0x3F)); }
                }
                return ENil.NIL;
            }
            int errAt = copyUtf8(a, off, size);
            if (errAt >= 0) { err = true; return b.sub(errAt - off, off + size - errAt); }
            return ENil.NIL;
        }

        /** copy_utf8_bin: copies valid UTF-8, keeping a truncated final sequence as leftover. Returns the error index or -1. */
        int copyUtf8(byte[] a, int src, int size) {
            ensure(size + 4);
            if (numLeftovers > 0) {
                int need = utf8Len(leftover[0]);
                int fromSource = need - numLeftovers;
                if (size < fromSource) {
                    System.arraycopy(a, src, leftover, numLeftovers, size);
                    numLeftovers += size;
                    return -1;
                }
                System.arraycopy(a, src, leftover, numLeftovers, fromSource);
                if (Utf8.seqLen(leftover, 0, need) != need) return src;
                System.arraycopy(leftover, 0, out, pos, need);
                pos += need;
                numLeftovers = 0;
                size -= fromSource;
                src += fromSource;
            }
            int end = src + size;
            while (src < end) {
                int b0 = a[src] & 0xFF;
                int n = utf8Len(a[src]);
                if (n > 1 && end - src < n) {
                    System.arraycopy(a, src, leftover, 0, end - src);
                    numLeftovers = end - src;
                    return -1;
                }
                if (n < 0 || Utf8.seqLen(a, src, end) != n) return src;
                if (n == 1) out[pos++] = (byte) b0;
                else { System.arraycopy(a, src, out, pos, n); pos += n; }
                src += n;
            }
            return -1;
        }

        private static int utf8Len(byte first) {
            int b = first & 0xFF;
            if ((b & 0x80) == 0) return 1;
            if ((b & 0xE0) == 0xC0) return 2;
            if ((b & 0xF0) == 0xE0) return 3;
            if ((b & 0xF8) == 0xF0) return 4;
            return -1;
        }

        /** Encodes one list integer; false on error. */
        boolean putChar(long x) {
            if (latin1 && x > 255) return false;
            if (!IoLists.validCodePoint(x)) return false;
            ensure(4);
            pos = Utf8.encode((int) x, out, pos);
            return true;
        }

        /** do_build_utf8 over a whole chardata term; returns the rest term (NIL when all done). */
        Term build(Term io) {
            if (io == ENil.NIL) return io;
            if (io instanceof EBitString b) return buildBinary(b);
            if (!(io instanceof ECons)) { err = true; return io; }
            ArrayDeque<Term> stack = new ArrayDeque<>();
            stack.push(io);
            done:
            while (!stack.isEmpty()) {
                io = stack.pop();
                if (io == ENil.NIL) continue;
                while (io instanceof ECons c) {
                    Term obj = c.head;
                    if (obj instanceof EInteger i) {
                        if (numLeftovers > 0 || !(i instanceof ESmall s) || !putChar(s.value)) { err = true; break done; }
                        io = c.tail;
                    } else if (obj == ENil.NIL) {
                        io = c.tail;
                    } else if (obj instanceof ECons) {
                        stack.push(c.tail);
                        io = obj;
                    } else if (obj instanceof EBitString b) {
                        Term r = buildBinary(b);
                        if (err) { io = new ECons(r, c.tail); break done; }
                        io = c.tail;
                    } else { err = true; break done; }
                }
                if (io != ENil.NIL) {
                    if (io instanceof EBitString b) {
                        io = buildBinary(b);
                        if (err) break done;
                    } else { err = true; break done; }
                }
                io = ENil.NIL;
            }
            if (!err) return ENil.NIL;
            while (!stack.isEmpty()) io = new ECons(io, stack.pop());
            return io;
        }
    }
}
