package org.jbeam.etf;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Deflater;

import org.jbeam.term.*;

import static org.jbeam.etf.Tags.*;

/**
 * {@code term_to_binary/1,2}: writes a term in OTP 25's external term format, byte for byte as
 * erts' enc_term does. Iterative (an explicit work stack), so deeply nested terms cannot overflow
 * the Java stack. OTP 25's default minor_version is 1 (latin1 atoms as ATOM_EXT, floats as
 * NEW_FLOAT_EXT); 2 writes every atom as (SMALL_)ATOM_UTF8_EXT; 0 writes floats as FLOAT_EXT.
 */
public final class TermEncoder {
    /** OTP 25's default {@code minor_version}. */
    public static final int DEFAULT_MINOR = 1;
    /** zlib level for the bare {@code compressed} option (Z_DEFAULT_COMPRESSION). */
    public static final int DEFAULT_COMPRESSION = 6;
    /** Binaries larger than this are referenced, not copied, by term_to_iovec (ERL_ONHEAP_BIN_LIMIT). */
    static final int IOVEC_BIN_LIMIT = 64;

    private byte[] buf = new byte[64];
    private int pos;
    private final int minor;
    /** When non-null, (start, length) of binary payloads that term_to_iovec hands out separately. */
    private final List<int[]> refs;

    private TermEncoder(int minor, boolean iovec) { this.minor = minor; this.refs = iovec ? new ArrayList<>() : null; }

    /** Binaries at least this long are not copied into a distribution packet but referenced (see {@link #encodeDist}). */
    static final int DIST_SHARE_LIMIT = 4096;
    /** Distribution encoding: the binaries referenced in place, with where they belong in {@link #buf}; else null. */
    private List<Shared> shared;
    /** Bytes of the shared binaries so far: logical position = pos + sharedBytes (NEW_FUN_EXT sizes need it). */
    private long sharedBytes;
    private record Shared(int at, EBitString bin) {}

    /**
     * A distribution packet in pass-through form: 112, the control message's and the payload's
     * (if not null) external format, as buffers for a gathering write. Binaries of at least
     * {@link #DIST_SHARE_LIMIT} bytes are not copied: their buffers wrap the binary's own array
     * (binaries are immutable; an append never writes inside an existing binary's range), so a 1 MiB
     * binary costs no copy until the socket write (erts also writes large binaries by reference).
     */
    public static java.nio.ByteBuffer[] encodeDist(Term control, Term payload) {
        TermEncoder e = new TermEncoder(DEFAULT_MINOR, false);
        e.shared = new ArrayList<>(0);
        e.put(112);
        e.put(VERSION_MAGIC);
        e.term(control);
        if (payload != null) { e.put(VERSION_MAGIC); e.term(payload); }
        java.nio.ByteBuffer[] parts = new java.nio.ByteBuffer[2 * e.shared.size() + 1];
        int n = 0, at = 0;
        for (Shared x : e.shared) {
            if (x.at > at) parts[n++] = java.nio.ByteBuffer.wrap(e.buf, at, x.at - at);
            parts[n++] = java.nio.ByteBuffer.wrap(x.bin.array(), x.bin.arrayOffset(), x.bin.byteSize());
            at = x.at;
        }
        if (e.pos > at) parts[n++] = java.nio.ByteBuffer.wrap(e.buf, at, e.pos - at);
        return n == parts.length ? parts : Arrays.copyOf(parts, n);
    }

    /** {@code term_to_binary(T)}. */
    public static byte[] encode(Term t) { return encode(t, DEFAULT_MINOR, -1); }

    /**
     * {@code term_to_binary(T, [{minor_version, Minor}, {compressed, Level}])}; {@code compressLevel}
     * -1 or 0 means uncompressed, 1..9 a zlib level (compressed only when that makes it smaller).
     */
    public static byte[] encode(Term t, int minorVersion, int compressLevel) {
        TermEncoder e = new TermEncoder(minorVersion, false);
        e.put(VERSION_MAGIC);
        e.term(t);
        byte[] plain = Arrays.copyOf(e.buf, e.pos);
        return compressLevel > 0 ? compress(plain, compressLevel) : plain;
    }

    /** {@code term_to_iovec(T, Opts)}: the encoding split so that binaries over 64 bytes are separate parts. */
    public static List<byte[]> encodeIovec(Term t, int minorVersion, int compressLevel) {
        if (compressLevel > 0) return List.of(encode(t, minorVersion, compressLevel));
        TermEncoder e = new TermEncoder(minorVersion, true);
        e.put(VERSION_MAGIC);
        e.term(t);
        List<byte[]> parts = new ArrayList<>();
        int at = 0;
        for (int[] r : e.refs) {
            if (r[0] > at) parts.add(Arrays.copyOfRange(e.buf, at, r[0]));
            parts.add(Arrays.copyOfRange(e.buf, r[0], r[0] + r[1]));
            at = r[0] + r[1];
        }
        if (at < e.pos) parts.add(Arrays.copyOfRange(e.buf, at, e.pos));
        return parts;
    }

    /** {@code erlang:external_size/2}: the uncompressed size, counting a local fun's OldIndex/OldUniq as INTEGER_EXT (as erts does). */
    public static long externalSize(Term t, int minorVersion) {
        TermEncoder e = new TermEncoder(minorVersion, false);
        e.put(VERSION_MAGIC);
        e.term(t);
        return e.pos + e.sizeSlack;
    }

    private long sizeSlack;

    /** Wraps an encoding (starting with 131) as OTP does: tag 80, size, zlib data; unchanged if not smaller. */
    static byte[] compress(byte[] plain, int level) {
        int realSize = plain.length - 1;
        int destLen = realSize < 5 ? 0 : realSize - 5;
        Deflater d = new Deflater(level);
        try {
            d.setInput(plain, 1, realSize);
            d.finish();
            byte[] out = new byte[6 + destLen + 1];
            int n = 0;
            while (!d.finished() && n < destLen + 1) n += d.deflate(out, 6 + n, destLen + 1 - n);
            if (!d.finished() || n > destLen) return plain;
            out[0] = (byte) VERSION_MAGIC;
            out[1] = (byte) COMPRESSED;
            out[2] = (byte) (realSize >>> 24); out[3] = (byte) (realSize >>> 16);
            out[4] = (byte) (realSize >>> 8); out[5] = (byte) realSize;
            return Arrays.copyOf(out, 6 + n);
        } finally {
            d.end();
        }
    }

    // ---- byte output ----

    private void ensure(int n) {
        if (pos + n > buf.length) {
            long want = Math.max((long) buf.length * 2, (long) pos + n);
            if (want > Integer.MAX_VALUE - 16) throw org.jbeam.runtime.ErlangException.systemLimit();
            buf = Arrays.copyOf(buf, (int) want);
        }
    }
    private void put(int b) { ensure(1); buf[pos++] = (byte) b; }
    private void put16(int v) { ensure(2); buf[pos++] = (byte) (v >>> 8); buf[pos++] = (byte) v; }
    private void put32(long v) { ensure(4); for (int s = 24; s >= 0; s -= 8) buf[pos++] = (byte) (v >>> s); }
    private void put64(long v) { ensure(8); for (int s = 56; s >= 0; s -= 8) buf[pos++] = (byte) (v >>> s); }
    private void putBytes(byte[] b, int off, int len) { ensure(len); System.arraycopy(b, off, buf, pos, len); pos += len; }

    /** Marker on the work stack: patch the NEW_FUN_EXT size field at {@code at}. */
    private record PatchSize(int at, long sharedBefore) {}

    private void term(Term root) {
        ArrayDeque<Object> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            Object o = work.pop();
            if (o instanceof PatchSize p) {
                long size = pos - p.at + (sharedBytes - p.sharedBefore);
                buf[p.at] = (byte) (size >>> 24); buf[p.at + 1] = (byte) (size >>> 16);
                buf[p.at + 2] = (byte) (size >>> 8); buf[p.at + 3] = (byte) size;
                continue;
            }
            switch ((Term) o) {
                case ESmall s -> small(s.value);
                case EBig b -> big(b.value);
                case EFloat f -> flt(f.value);
                case EAtom a -> atom(a);
                case ENil n -> put(NIL_EXT);
                case ECons c -> list(c, work);
                case ETuple t -> {
                    int n = t.arity();
                    if (n <= 255) { put(SMALL_TUPLE_EXT); put(n); } else { put(LARGE_TUPLE_EXT); put32(n); }
                    for (int i = n - 1; i >= 0; i--) work.push(t.get(i));
                }
                case EMap m -> {
                    put(MAP_EXT);
                    put32(m.size());
                    int[] order = MapOrder.encodeOrder(m);
                    for (int i = order.length - 1; i >= 0; i--) { work.push(m.valueAt(order[i])); work.push(m.keyAt(order[i])); }
                }
                case EBitString b -> bits(b);
                case EPid p -> pid(p);
                case EPort p -> {
                    boolean local = p.node == EAtom.NONODE;
                    if (p.id > MAX_V3_PORT) { put(V4_PORT_EXT); atom(local ? TermDecoder.localNode : p.node); put64(p.id); }
                    else { put(NEW_PORT_EXT); atom(local ? TermDecoder.localNode : p.node); put32(p.id); }
                    put32(local ? TermDecoder.localCreation : p.creation);
                }
                case ERef r -> {
                    r.copiedOut();
                    put(NEWER_REFERENCE_EXT);
                    put16(r.idCount());
                    boolean local = r.node == EAtom.NONODE;
                    atom(local ? TermDecoder.localNode : r.node);
                    put32(local ? TermDecoder.localCreation : r.creation);
                    for (int i = 0; i < r.idCount(); i++) put32(r.id(i));
                }
                case EExportFun f -> { put(EXPORT_EXT); atom(f.module); atom(f.function); put(SMALL_INTEGER_EXT); put(f.arity); }
                case ELocalFun f -> localFun(f, work);
                default -> throw new IllegalArgumentException("not encodable: " + o.getClass());
            }
        }
    }

    private void small(long v) {
        if (v >= 0 && v <= 255) { put(SMALL_INTEGER_EXT); put((int) v); }
        else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) { put(INTEGER_EXT); put32(v); }
        else big(BigInteger.valueOf(v));
    }

    private void big(BigInteger v) {
        byte[] mag = v.abs().toByteArray(); // big-endian, maybe a leading 0
        int start = mag[0] == 0 ? 1 : 0;
        int n = mag.length - start;
        if (n <= 255) { put(SMALL_BIG_EXT); put(n); } else { put(LARGE_BIG_EXT); put32(n); }
        put(v.signum() < 0 ? 1 : 0);
        ensure(n);
        for (int i = mag.length - 1; i >= start; i--) buf[pos++] = mag[i];
    }

    private void flt(double d) {
        if (minor == 0) { put(FLOAT_EXT); ensure(FloatText.SIZE); FloatText.write(buf, pos, d); pos += FloatText.SIZE; }
        else { put(NEW_FLOAT_EXT); put64(Double.doubleToRawLongBits(d)); }
    }

    private void atom(EAtom a) {
        if (minor < 2 && a.isLatin1()) {
            String s = a.name;
            put(ATOM_EXT);
            put16(s.length());
            ensure(s.length());
            for (int i = 0; i < s.length(); i++) buf[pos++] = (byte) s.charAt(i);
            return;
        }
        byte[] u = a.utf8();
        if (u.length <= 255) { put(SMALL_ATOM_UTF8_EXT); put(u.length); } else { put(ATOM_UTF8_EXT); put16(u.length); }
        putBytes(u, 0, u.length);
    }

    private void list(ECons c, ArrayDeque<Object> work) {
        int n = 0;
        boolean bytes = true;
        Term t = c;
        while (t instanceof ECons x) {
            n++;
            if (bytes && !(x.head instanceof ESmall s && s.value >= 0 && s.value <= 255)) bytes = false;
            t = x.tail;
        }
        if (bytes && t == ENil.NIL && n < 65536) {
            put(STRING_EXT);
            put16(n);
            ensure(n);
            for (Term x = c; x instanceof ECons y; x = y.tail) buf[pos++] = (byte) ((ESmall) y.head).value;
            return;
        }
        put(LIST_EXT);
        put32(n);
        Term[] elems = new Term[n];
        int i = 0;
        for (Term x = c; x instanceof ECons y; x = y.tail) elems[i++] = y.head;
        work.push(t);
        for (i = n - 1; i >= 0; i--) work.push(elems[i]);
    }

    private void bits(EBitString b) {
        int whole = b.byteSize(), extra = b.extraBits();
        int len = whole + (extra != 0 ? 1 : 0);
        if (extra == 0) { put(BINARY_EXT); put32(len); } else { put(BIT_BINARY_EXT); put32(len); put(extra); }
        int start = pos;
        if (shared != null && whole >= DIST_SHARE_LIMIT && extra == 0) {
            shared.add(new Shared(pos, b));
            sharedBytes += whole;
            return;
        }
        putBytes(b.array(), b.arrayOffset(), whole);
        if (refs != null && whole > IOVEC_BIN_LIMIT) refs.add(new int[] {start, whole});
        if (extra != 0) put(b.byteAt(whole));
    }

    private void pid(EPid p) {
        // This node's pids carry its current name and creation on the wire (erts' erts_this_node).
        boolean local = p.node == EAtom.NONODE;
        put(NEW_PID_EXT);
        atom(local ? TermDecoder.localNode : p.node);
        put32(p.number);
        put32(p.serial);
        put32(local ? TermDecoder.localCreation : p.creation);
    }

    private void localFun(ELocalFun f, ArrayDeque<Object> work) {
        put(NEW_FUN_EXT);
        int sizeAt = pos;
        put32(0);
        put(f.arity);
        byte[] md5 = f.md5() != null && f.md5().length == 16 ? f.md5() : new byte[16];
        putBytes(md5, 0, 16);
        put32(f.index);
        put32(f.freeVars.length);
        atom(f.module);
        int before = pos;
        small(f.index);
        sizeSlack += 5 - (pos - before);
        before = pos;
        small(f.oldUniq);
        sizeSlack += 5 - (pos - before);
        pid(f.pid != null ? f.pid : new EPid(EAtom.NONODE, 0, 0, 0));
        work.push(new PatchSize(sizeAt, sharedBytes));
        for (int i = f.freeVars.length - 1; i >= 0; i--) work.push(f.freeVars[i]);
    }
}
