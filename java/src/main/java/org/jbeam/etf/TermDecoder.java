package org.jbeam.etf;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

import static org.jbeam.etf.Tags.*;

/**
 * {@code binary_to_term/1,2}: decodes OTP's external term format, accepting every tag OTP 25
 * accepts (including the legacy atom, float, pid, port and reference tags and zlib compression;
 * ATOM_CACHE_REF and other distribution-only tags are refused). Malformed input of any kind
 * raises {@code badarg}. Like erts, it first walks the input once without allocating
 * ({@link DecodedSize}) so that length fields are checked against the bytes actually present,
 * then builds the term iteratively (no recursion, so nesting depth is unbounded).
 */
public final class TermDecoder {
    /**
     * The node whose pids/ports/refs are local and checked against OTP's local limits: this node's
     * name and creation once it is alive (set by erlang:setnode/2; one distributed node per JVM).
     */
    public static volatile EAtom localNode = EAtom.NONODE;
    public static volatile int localCreation = 0;
    /**
     * The live pid object of this node's process {@code number | serial << 15}, or null: installed by the
     * distributed runtime (one per JVM), so a pid coming back from another node is the process's own
     * pid object and every BIF sees the process behind it.
     */
    public static volatile java.util.function.LongFunction<EPid> livePids;

    /** A decoded term and the number of bytes consumed (binary_to_term's {@code used} option). */
    public record Result(Term term, int used) {}

    private final byte[] b;
    private int pos;
    private final int end;
    private final boolean safe;
    private final FunResolver resolver;
    private CharsetDecoder utf8;
    /**
     * Binaries of at least this many bytes reference {@link #b} instead of copying out of it
     * (0: always copy). Only for input nobody writes to afterwards: a distribution packet in an
     * array of its own, as erts makes large binaries of a received packet sub-binaries of it.
     */
    private int shareFrom;

    private TermDecoder(byte[] b, int pos, int end, boolean safe, FunResolver resolver) {
        this.b = b; this.pos = pos; this.end = end; this.safe = safe; this.resolver = resolver;
    }

    /**
     * A distribution packet's term at {@code b[off, off+len)}: as {@link #decode(byte[], int, int, boolean, FunResolver)},
     * but when {@code owned} (the array is the packet's alone and never written again) binaries of
     * at least {@code TermEncoder.DIST_SHARE_LIMIT} bytes view {@code b} instead of copying.
     */
    public static Result decodeDist(byte[] b, int off, int len, boolean owned, FunResolver resolver) {
        if (!owned || len < TermEncoder.DIST_SHARE_LIMIT || len < 2 || (b[off + 1] & 0xFF) == COMPRESSED) return decode(b, off, len, false, resolver);
        if (off < 0 || off + len > b.length || (b[off] & 0xFF) != VERSION_MAGIC) throw ErlangException.badarg();
        try {
            DecodedSize.check(b, off + 1, off + len);
            TermDecoder d = new TermDecoder(b, off + 1, off + len, false, resolver);
            d.shareFrom = TermEncoder.DIST_SHARE_LIMIT;
            Term t = d.run();
            return new Result(t, d.pos - off);
        } catch (ErlangException e) {
            throw e;
        } catch (RuntimeException | OutOfMemoryError e) {
            throw ErlangException.badarg();
        }
    }

    /** {@code binary_to_term(Bin)} on {@code b[off, off+len)}; trailing bytes are ignored as in OTP. */
    public static Term decode(byte[] b, int off, int len) { return decode(b, off, len, false, FunResolver.DEFAULT).term; }

    /** Full form: {@code safe} refuses to create atoms (and unknown exports); returns the bytes used. */
    public static Result decode(byte[] b, int off, int len, boolean safe, FunResolver resolver) {
        if (off < 0 || len < 0 || off + len > b.length) throw ErlangException.badarg();
        try {
            int end = off + len;
            if (len < 2 || (b[off] & 0xFF) != VERSION_MAGIC) throw ErlangException.badarg();
            if ((b[off + 1] & 0xFF) == COMPRESSED) return inflated(b, off + 2, end, safe, resolver);
            DecodedSize.check(b, off + 1, end);
            TermDecoder d = new TermDecoder(b, off + 1, end, safe, resolver);
            Term t = d.run();
            return new Result(t, d.pos - off);
        } catch (ErlangException e) {
            throw e;
        } catch (RuntimeException | OutOfMemoryError e) { // defensive: malformed input must only ever give badarg
            throw ErlangException.badarg();
        }
    }

    private static Result inflated(byte[] b, int p, int end, boolean safe, FunResolver resolver) {
        if (end - p < 4) throw ErlangException.badarg();
        long size = ((b[p] & 0xFFL) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
        p += 4;
        if (size == 0 || size > Integer.MAX_VALUE - 16) throw ErlangException.badarg();
        Inflater inf = new Inflater();
        try {
            inf.setInput(b, p, end - p);
            byte[] out = new byte[(int) Math.min(size, 1 << 16)];
            int n = 0;
            while (true) {
                if (n == out.length) {
                    if (n == size) {
                        // must end exactly here: one more byte of output means the size field lied
                        if (inf.inflate(new byte[1]) > 0 || !inf.finished()) throw ErlangException.badarg();
                        break;
                    }
                    out = Arrays.copyOf(out, (int) Math.min(size, (long) out.length * 2));
                }
                int k = inf.inflate(out, n, out.length - n);
                n += k;
                if (inf.finished()) break;
                if (k == 0 && (inf.needsInput() || inf.needsDictionary())) throw ErlangException.badarg();
            }
            if (n != size) throw ErlangException.badarg();
            DecodedSize.check(out, 0, n);
            Term t = new TermDecoder(out, 0, n, safe, resolver).run();
            return new Result(t, end - inf.getRemaining() - (p - 6));
        } catch (DataFormatException e) {
            throw ErlangException.badarg();
        } finally {
            inf.end();
        }
    }

    // ---- primitive reads (bounds already validated by DecodedSize, but re-checked cheaply) ----

    private void need(long n) { if (n > end - pos) throw ErlangException.badarg(); }
    private int u8() { need(1); return b[pos++] & 0xFF; }
    private int u16() { need(2); int v = ((b[pos] & 0xFF) << 8) | (b[pos + 1] & 0xFF); pos += 2; return v; }
    private int i32() {
        need(4);
        int v = ((b[pos] & 0xFF) << 24) | ((b[pos + 1] & 0xFF) << 16) | ((b[pos + 2] & 0xFF) << 8) | (b[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }
    private long u32() { return i32() & 0xFFFFFFFFL; }
    private long i64() { long hi = u32(); return (hi << 32) | u32(); }

    // ---- containers under construction ----

    private static final int TUPLE = 0, LIST = 1, MAP = 2, FUN = 3;

    private static final class Frame {
        final int kind;
        final Term[] slots;
        int filled;
        EAtom module;
        int arity, index, oldUniq;
        byte[] md5;
        EPid pid;
        Frame(int kind, int n) { this.kind = kind; this.slots = new Term[n]; }
    }

    private Frame[] stack = new Frame[16];
    private int sp;

    private void push(Frame f) {
        if (sp == stack.length) stack = Arrays.copyOf(stack, sp * 2);
        stack[sp++] = f;
    }

    private Term run() {
        while (true) {
            Term t = one();
            if (t == null) continue; // a container was opened (or an empty LIST_EXT prefix)
            while (true) {
                if (sp == 0) return t;
                Frame f = stack[sp - 1];
                f.slots[f.filled++] = t;
                if (f.filled < f.slots.length) break;
                sp--;
                t = build(f);
            }
        }
    }

    private Term build(Frame f) {
        switch (f.kind) {
            case TUPLE: return new ETuple(f.slots);
            case LIST: {
                Term l = f.slots[f.slots.length - 1];
                for (int i = f.slots.length - 2; i >= 0; i--) l = new ECons(f.slots[i], l);
                return l;
            }
            case MAP: {
                int n = f.slots.length / 2;
                Term[] ks = new Term[n], vs = new Term[n];
                for (int i = 0; i < n; i++) { ks[i] = f.slots[2 * i]; vs[i] = f.slots[2 * i + 1]; }
                EMap m = EMap.of(ks, vs);
                if (m.size() != n) throw ErlangException.badarg(); // duplicate keys
                return m;
            }
            default: return makeFun(f, f.slots);
        }
    }

    private Term makeFun(Frame f, Term[] free) {
        FunResolver.FunEntry e = resolver.lookup(f.module, f.index, f.oldUniq, f.md5, f.arity, free.length);
        EAtom fn = e != null && e.function() != null ? e.function() : EAtom.EMPTY;
        return new ELocalFun(f.module, fn, f.arity, f.index, f.oldUniq, f.md5, free, f.pid, e != null ? e.entry() : null);
    }

    /** Decodes one term; returns null when it opened a container whose elements follow. */
    private Term one() {
        int tag = u8();
        switch (tag) {
            case SMALL_INTEGER_EXT: return ESmall.of(u8());
            case INTEGER_EXT: return ESmall.of(i32());
            case SMALL_BIG_EXT: { int n = u8(); return bigBody(n); }
            case LARGE_BIG_EXT: { long n = u32(); need(n + 1); return bigBody((int) n); }
            case NEW_FLOAT_EXT: {
                double d = Double.longBitsToDouble(i64());
                if (Double.isNaN(d) || Double.isInfinite(d)) throw ErlangException.badarg();
                return new EFloat(d);
            }
            case FLOAT_EXT: {
                need(FloatText.SIZE);
                double d = FloatText.parse(b, pos);
                if (Double.isNaN(d)) throw ErlangException.badarg();
                pos += FloatText.SIZE;
                return new EFloat(d);
            }
            case ATOM_EXT: case SMALL_ATOM_EXT: case ATOM_UTF8_EXT: case SMALL_ATOM_UTF8_EXT: return atomBody(tag);
            case NIL_EXT: return ENil.NIL;
            case STRING_EXT: {
                int n = u16();
                need(n);
                Term l = ENil.NIL;
                for (int i = pos + n - 1; i >= pos; i--) l = new ECons(ESmall.of(b[i] & 0xFF), l);
                pos += n;
                return l;
            }
            case LIST_EXT: {
                long n = u32();
                if (n == 0) return null; // the tail that follows is the whole term
                need(n + 1);
                push(new Frame(LIST, (int) n + 1));
                return null;
            }
            case SMALL_TUPLE_EXT: case LARGE_TUPLE_EXT: {
                long n = tag == SMALL_TUPLE_EXT ? u8() : u32();
                if (n == 0) return ETuple.EMPTY;
                need(n);
                push(new Frame(TUPLE, (int) n));
                return null;
            }
            case MAP_EXT: {
                long n = u32();
                if (n == 0) return EMap.EMPTY;
                need(2 * n);
                push(new Frame(MAP, (int) (2 * n)));
                return null;
            }
            case BINARY_EXT: {
                long n = u32();
                need(n);
                if (shareFrom > 0 && n >= shareFrom) {
                    EBitString v = EBitString.of(b, pos, (int) n);
                    pos += (int) n;
                    return v;
                }
                byte[] data = Arrays.copyOfRange(b, pos, pos + (int) n);
                pos += (int) n;
                return EBitString.of(data);
            }
            case BIT_BINARY_EXT: {
                long n = u32();
                int bits = u8();
                if (n == 0 ? bits != 0 : (bits < 1 || bits > 8)) throw ErlangException.badarg();
                need(n);
                byte[] data = Arrays.copyOfRange(b, pos, pos + (int) n);
                pos += (int) n;
                if (n == 0) return EBitString.EMPTY;
                data[data.length - 1] &= (byte) (0xFF << (8 - bits));
                return new EBitString(data, 0, (n - 1) * 8 + bits);
            }
            case PID_EXT: case NEW_PID_EXT: return pidBody(tag);
            case PORT_EXT: case NEW_PORT_EXT: case V4_PORT_EXT: {
                EAtom node = atom();
                long id = tag == V4_PORT_EXT ? i64() : u32();
                int cre = tag == PORT_EXT ? tinyCreation(u8()) : i32();
                if (isLocal(node, cre) && (id < 0 || id > MAX_LOCAL_PORT)) throw ErlangException.badarg();
                if (id < 0) throw ErlangException.badarg();
                return isLocal(node, cre) ? new EPort(EAtom.NONODE, id, 0) : new EPort(node, id, cre);
            }
            case REFERENCE_EXT: {
                EAtom node = atom();
                int w0 = i32();
                int cre = tinyCreation(u8());
                return ref(node, cre, new int[] {w0});
            }
            case NEW_REFERENCE_EXT: case NEWER_REFERENCE_EXT: {
                int n = u16();
                EAtom node = atom();
                int cre = tag == NEW_REFERENCE_EXT ? tinyCreation(u8()) : i32();
                if (n > MAX_REF_WORDS) throw ErlangException.badarg();
                int[] ids = new int[n];
                for (int i = 0; i < n; i++) ids[i] = i32();
                return ref(node, cre, ids);
            }
            case EXPORT_EXT: {
                EAtom m = atom(), f = atom();
                int at = u8();
                long arity;
                if (at == SMALL_INTEGER_EXT) arity = u8();
                else if (at == INTEGER_EXT) arity = i32();
                else throw ErlangException.badarg();
                if (arity < 0 || arity > 255) throw ErlangException.badarg();
                if (safe && !resolver.exportExists(m, f, (int) arity)) throw ErlangException.badarg();
                return new EExportFun(m, f, (int) arity);
            }
            case NEW_FUN_EXT: return funHeader();
            default: throw ErlangException.badarg(); // ATOM_CACHE_REF, FUN_EXT, distribution headers, garbage
        }
    }

    private Term funHeader() {
        need(4 + 1 + 16 + 4 + 4);
        pos += 4; // total size: OTP decodes sequentially and does not rely on it
        Frame f = new Frame(FUN, 0);
        f.arity = u8();
        f.md5 = Arrays.copyOfRange(b, pos, pos + 16);
        pos += 16;
        f.index = i32();
        long numFree = u32();
        f.module = atom();
        smallInt(); // OldIndex
        f.oldUniq = (int) smallInt();
        int pt = u8();
        if (pt != PID_EXT && pt != NEW_PID_EXT) throw ErlangException.badarg();
        f.pid = pidBody(pt);
        if (numFree == 0) return makeFun(f, new Term[0]);
        need(numFree);
        Frame g = new Frame(FUN, (int) numFree);
        g.module = f.module; g.arity = f.arity; g.index = f.index; g.oldUniq = f.oldUniq; g.md5 = f.md5; g.pid = f.pid;
        push(g);
        return null;
    }

    private long smallInt() {
        int t = u8();
        if (t == SMALL_INTEGER_EXT) return u8();
        if (t == INTEGER_EXT) return i32();
        throw ErlangException.badarg();
    }

    private Term bigBody(int n) {
        int sign = u8();
        need(n);
        byte[] mag = new byte[n];
        for (int i = 0; i < n; i++) mag[i] = b[pos + n - 1 - i];
        pos += n;
        BigInteger v = new BigInteger(1, mag);
        return EInteger.of(sign != 0 ? v.negate() : v);
    }

    private EPid pidBody(int tag) {
        EAtom node = atom();
        long num = u32(), ser = u32();
        int cre = tag == PID_EXT ? tinyCreation(u8()) : i32();
        if (isLocal(node, cre) && (num > MAX_LOCAL_PID_NUMBER || ser > MAX_LOCAL_PID_SERIAL)) throw ErlangException.badarg();
        // This node's own pids come back as local pids (node marker nonode@nohost, as spawn makes them).
        if (!isLocal(node, cre)) return new EPid(node, (int) num, (int) ser, cre);
        var live = livePids;
        EPid p = live == null ? null : live.apply(num | (ser << 15));
        return p != null && p.number == num && p.serial == ser ? p : new EPid(EAtom.NONODE, (int) num, (int) ser, 0);
    }

    private ERef ref(EAtom node, int cre, int[] ids) {
        if (isLocal(node, cre)) {
            if (ids.length > LOCAL_REF_WORDS || ids.length == 0 || (ids[0] & 0xFFFFFFFFL) > MAX_LOCAL_REF_W0) throw ErlangException.badarg();
            ids = Arrays.copyOf(ids, LOCAL_REF_WORDS);
            return new ERef(EAtom.NONODE, 0, ids);
        }
        return new ERef(node, cre, ids);
    }

    private static int tinyCreation(int c) {
        if (c > 3) throw ErlangException.badarg();
        return c;
    }

    private static boolean isLocal(EAtom node, int creation) { return node == localNode && creation == localCreation; }

    private EAtom atom() { return atomBody(u8()); }

    private boolean ascii(int n) {
        for (int i = pos; i < pos + n; i++) if (b[i] < 0) return false;
        return true;
    }

    private EAtom atomBody(int tag) {
        String name;
        switch (tag) {
            case ATOM_EXT: case SMALL_ATOM_EXT: {
                int n = tag == ATOM_EXT ? u16() : u8();
                if (n > EAtom.MAX_CHARS) throw ErlangException.badarg();
                need(n);
                name = new String(b, pos, n, StandardCharsets.ISO_8859_1);
                pos += n;
                break;
            }
            case ATOM_UTF8_EXT: case SMALL_ATOM_UTF8_EXT: {
                int n = tag == ATOM_UTF8_EXT ? u16() : u8();
                if (n > 4 * EAtom.MAX_CHARS) throw ErlangException.badarg();
                need(n);
                if (ascii(n)) { // the usual atom: its UTF-8 is its Latin-1, without a CharsetDecoder
                    if (n > EAtom.MAX_CHARS) throw ErlangException.badarg();
                    name = new String(b, pos, n, StandardCharsets.ISO_8859_1);
                    pos += n;
                    break;
                }
                if (utf8 == null) utf8 = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
                try {
                    CharBuffer cb = utf8.reset().decode(ByteBuffer.wrap(b, pos, n));
                    name = cb.toString();
                } catch (CharacterCodingException e) {
                    throw ErlangException.badarg();
                }
                if (name.codePointCount(0, name.length()) > EAtom.MAX_CHARS) throw ErlangException.badarg();
                pos += n;
                break;
            }
            default: throw ErlangException.badarg();
        }
        if (safe) {
            EAtom a = EAtom.existing(name);
            if (a == null) throw ErlangException.badarg();
            return a;
        }
        return EAtom.of(name);
    }
}
