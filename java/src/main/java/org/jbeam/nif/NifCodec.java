package org.jbeam.nif;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.ECons;
import org.jbeam.term.EFloat;
import org.jbeam.term.EInteger;
import org.jbeam.term.EMap;
import org.jbeam.term.ENil;
import org.jbeam.term.ERef;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * Java's half of the flat term encoding shared with native/nif/nif_codec.c (ADR 0006):
 * arguments are encoded straight into native memory (where the C side builds ERL_NIF_TERMs
 * pointing into it), results are decoded straight from native memory.
 */
final class NifCodec {
    static final byte NIL = 0, SMALL = 1, ATOM = 2, FLOAT = 3, BIG = 4, TUPLE = 5, LIST = 6, BIN = 7, MAP = 8,
            OPAQUE = 9, RES = 10, HEAPBIN = 11;
    private static final long SMALL_MAX = (1L << 61) - 1, SMALL_MIN = -(1L << 61);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    // ---- encoder: straight into malloc'd native memory (global scope: no liveness checks, no
    // second copy; C reads it in place and binaries point into it) ----
    private static final long INITIAL = 256;
    /** The buffer, {@link #cap} bytes; freed by {@link #free} or handed to C by {@link #detach}. */
    MemorySegment buf;
    long cap, pos;

    NifCodec() { alloc(INITIAL); }

    private void alloc(long n) { buf = JbeamNif.malloc(n); cap = n; }

    /** Resource terms encoded since the last reset, kept reachable until the call is over (NifResources.pointer). */
    final java.util.ArrayList<Object> pins = new java.util.ArrayList<>(2);

    /**
     * The one binary argument C reads in place from its Java array (tag 11, NifCallContext.call);
     * null when none.
     */
    byte[] heapArr;
    int heapOff, heapLen;

    void heapBinary(EBitString b) {
        ensure(5);
        u8(HEAPBIN); u32(b.byteSize());
        heapArr = b.array(); heapOff = b.arrayOffset(); heapLen = b.byteSize();
    }

    void reset() {
        pos = 0;
        heapArr = null;
        if (!pins.isEmpty()) pins.clear();
    }

    /** Frees a buffer that grew beyond {@code keep} bytes and starts a small one. */
    void shrink(long keep) {
        if (cap <= keep) return;
        JbeamNif.free(buf);
        alloc(INITIAL);
    }

    void free() { JbeamNif.free(buf); buf = null; cap = 0; }

    /** The encoded bytes, now owned by the caller (C frees them); this codec is then done. */
    MemorySegment detach() {
        MemorySegment b = buf;
        buf = null; cap = 0;
        return b;
    }

    /** The native address of the encoded bytes. */
    long address() { return buf.address(); }

    private void ensure(long n) {
        if (pos + n <= cap) return;
        long nc = Math.max(cap * 2, pos + n);
        MemorySegment nb = JbeamNif.malloc(nc);
        MemorySegment.copy(buf, 0, nb, 0, pos);
        JbeamNif.free(buf);
        buf = nb; cap = nc;
    }
    private void u8(int v) { ensure(1); buf.set(ValueLayout.JAVA_BYTE, pos++, (byte) v); }
    private void u32(int v) { ensure(4); buf.set(INT, pos, v); pos += 4; }
    private void u64(long v) { ensure(8); buf.set(LONG, pos, v); pos += 8; }

    void encode(Term t) {
        while (true) {
            switch (t) {
                case ENil n -> u8(NIL);
                case ESmall s when s.value >= SMALL_MIN && s.value <= SMALL_MAX -> { ensure(9); u8(SMALL); u64(s.value); }
                case EInteger i -> big(i.bigValue());
                case EAtom a -> { ensure(5); u8(ATOM); u32(NifAtoms.index(a)); }
                case EFloat f -> { ensure(9); u8(FLOAT); u64(Double.doubleToRawLongBits(f.value)); }
                case ETuple tu -> {
                    u8(TUPLE); u32(tu.arity());
                    for (Term e : tu.elements()) encode(e);
                }
                case ECons c -> {
                    int n = 0;
                    Term s = c;
                    while (s instanceof ECons sc) { n++; s = sc.tail; }
                    u8(LIST); u32(n);
                    s = c;
                    while (s instanceof ECons sc) { encode(sc.head); s = sc.tail; }
                    t = s;   // the tail
                    continue;
                }
                case EBitString b when b.isBinary() -> {
                    int n = b.byteSize();
                    ensure(5L + n);
                    u8(BIN); u32(n);
                    // only the binary's own bytes (a sub-binary's slice, not its parent)
                    MemorySegment.copy(b.array(), b.arrayOffset(), buf, ValueLayout.JAVA_BYTE, pos, n);
                    pos += n;
                }
                case EMap m -> {
                    u8(MAP); u32(m.size());
                    for (int i = 0; i < m.size(); i++) { encode(m.keyAt(i)); encode(m.valueAt(i)); }
                }
                case ERef r -> {
                    long ptr = NifResources.pointer(r, pins);
                    if (ptr != 0) { u8(RES); u64(ptr); } else opaque(r);
                }
                default -> opaque(t);
            }
            return;
        }
    }

    private void opaque(Term t) { u8(OPAQUE); u8(NifOpaque.kind(t)); u64(NifOpaque.id(t)); }

    private void big(BigInteger v) {
        byte[] be = v.abs().toByteArray();
        int start = be[0] == 0 ? 1 : 0;
        int n = be.length - start;
        u8(BIG); u8(v.signum() < 0 ? 1 : 0); u32(n); ensure(n);
        for (int i = 0; i < n; i++) buf.set(ValueLayout.JAVA_BYTE, pos++, be[be.length - 1 - i]);
    }

    // ---- decoder ----
    /**
     * All of native memory as one segment: results are read at their absolute addresses, so a
     * call needs no segment of its own. (MemorySegment.reinterpret is a restricted method: each
     * call asks for its caller class, a stack walk until C2 has compiled the caller; ADR 0026.)
     */
    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    static final class Reader {
        final MemorySegment m;
        long p;
        boolean adopt;
        /** Who receives the resources decoded (NifReaper), or null; its record, made at the first resource. */
        org.jbeam.runtime.ErlProcess caller;
        NifReaper.Holder holder;
        Reader(MemorySegment m) { this.m = m; }
        Reader(MemorySegment m, long p) { this.m = m; this.p = p; }
        int u8() { return m.get(ValueLayout.JAVA_BYTE, p++) & 0xFF; }
        int u32() { int v = m.get(INT, p); p += 4; return v; }
        long u64() { long v = m.get(LONG, p); p += 8; return v; }
    }

    /**
     * Decodes a NIF's result, the {@code len} bytes at native address {@code addr}: each resource
     * in it carries a native reference for Java to adopt. New resource terms are counted against
     * {@code caller} (may be null; {@link NifReaper}).
     */
    static Term decodeResult(long addr, long len, org.jbeam.runtime.ErlProcess caller) {
        // The common non-immediate result of a stateful NIF (crypto's hash_update_nif, ...) is
        // one resource: no reader.
        if (len == 9 && ALL.get(ValueLayout.JAVA_BYTE, addr) == RES)
            return NifResources.term(ALL.get(LONG, addr + 1), true, NifReaper.holder(caller));
        Reader r = new Reader(ALL, addr);
        r.adopt = true;
        r.caller = caller;
        Term t = decode(r);
        if (r.p != addr + len) throw new IllegalStateException("trailing bytes in NIF result");
        return t;
    }

    /** Decodes the {@code len} flat bytes at native address {@code addr} (upcalls: enif_send, enif_term_to_binary, ...). */
    static Term decodeAt(long addr, long len) {
        Reader r = new Reader(ALL, addr);
        Term t = decode(r);
        if (r.p != addr + len) throw new IllegalStateException("trailing bytes in NIF term");
        return t;
    }

    static Term decode(MemorySegment m) {
        Reader r = new Reader(m);
        Term t = decode(r);
        if (r.p != m.byteSize()) throw new IllegalStateException("trailing bytes in NIF result");
        return t;
    }

    static Term decode(Reader r) {
        int tag = r.u8();
        switch (tag) {
            case NIL: return ENil.NIL;
            case SMALL: return ESmall.of(r.u64());
            case ATOM: return NifAtoms.atom(r.u32());
            case FLOAT: return EFloat.of(Double.longBitsToDouble(r.u64()));
            case BIG: {
                boolean neg = r.u8() != 0;
                int n = r.u32();
                byte[] be = new byte[n + 1];
                for (int i = 0; i < n; i++) be[n - i] = r.m.get(ValueLayout.JAVA_BYTE, r.p + i);
                r.p += n;
                BigInteger v = new BigInteger(be);
                return EInteger.of(neg ? v.negate() : v);
            }
            case TUPLE: {
                int n = r.u32();
                Term[] el = new Term[n];
                for (int i = 0; i < n; i++) el[i] = decode(r);
                return ETuple.of(el);
            }
            case LIST: {
                int n = r.u32();
                Term[] el = new Term[n];
                for (int i = 0; i < n; i++) el[i] = decode(r);
                Term l = decode(r);
                for (int i = n - 1; i >= 0; i--) l = new ECons(el[i], l);
                return l;
            }
            case BIN: {
                int n = r.u32();
                byte[] b = r.m.asSlice(r.p, n).toArray(ValueLayout.JAVA_BYTE);
                r.p += n;
                return EBitString.of(b);
            }
            case MAP: {
                int n = r.u32();
                Term[] k = new Term[n], v = new Term[n];
                for (int i = 0; i < n; i++) { k[i] = decode(r); v[i] = decode(r); }
                return EMap.of(k, v);
            }
            case OPAQUE: { r.u8(); return NifOpaque.term(r.u64()); }
            case RES:
                if (r.holder == null && r.caller != null) r.holder = NifReaper.holder(r.caller);
                return NifResources.term(r.u64(), r.adopt, r.holder);
            default: throw new IllegalStateException("bad NIF term tag " + tag);
        }
    }

}
