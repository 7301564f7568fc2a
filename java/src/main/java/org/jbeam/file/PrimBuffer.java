package org.jbeam.file;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * prim_buffer's NIF (erts prim_buffer_nif.c): the byte queue prim_file uses for read-ahead and
 * read_line. Erlang holds an opaque reference; buffers are garbage-collected resources in OTP,
 * so the registry holds them weakly by their reference.
 */
public final class PrimBuffer {
    private static final int TAG = 0x7B0FF000;
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final Map<ERef, PrimBuffer> LIVE = Collections.synchronizedMap(new WeakHashMap<>());

    private byte[] data = new byte[0];
    private int start, end;
    private boolean locked;

    private PrimBuffer() {}

    /** new/0: a fresh empty buffer. */
    public static ERef create() {
        long id = NEXT.getAndIncrement();
        ERef ref = new ERef(EAtom.NONODE, 0, new int[] {(int) (id & 0x3FFFF), (int) (id >>> 18), TAG});
        LIVE.put(ref, new PrimBuffer());
        return ref;
    }

    /** The buffer a reference names; badarg for anything else. */
    public static PrimBuffer of(Term t) {
        PrimBuffer b = t instanceof ERef r && r.idCount() == 3 && r.id(2) == TAG ? LIVE.get(r) : null;
        if (b == null) throw ErlangException.badarg();
        return b;
    }

    public synchronized Term size() { return ESmall.of(end - start); }

    /** write/2: appends an I/O vector (a list of binaries). */
    public synchronized Term write(Term iov) {
        int add = 0;
        for (Term t = iov; ; t = ((ECons) t).tail) {
            if (t instanceof ENil) break;
            if (!(t instanceof ECons c) || !(c.head instanceof EBitString b) || !b.isBinaryAligned()) throw ErlangException.badarg();
            add += b.byteSize();
        }
        if (end + add > data.length) {
            int live = end - start;
            byte[] n = new byte[Math.max(live + add, data.length * 2)];
            System.arraycopy(data, start, n, 0, live);
            data = n;
            start = 0;
            end = live;
        }
        for (Term t = iov; t instanceof ECons c; t = c.tail) {
            EBitString b = (EBitString) c.head;
            System.arraycopy(b.array(), b.arrayOffset(), data, end, b.byteSize());
            end += b.byteSize();
        }
        return EAtom.OK;
    }

    /** copying_read/2: removes and returns the first {@code n} bytes (badarg if fewer are buffered). */
    public synchronized Term copyingRead(Term n) {
        int k = count(n);
        byte[] out = Arrays.copyOfRange(data, start, start + k);
        start += k;
        return EBitString.of(out);
    }

    /** skip/2: drops the first {@code n} bytes. */
    public synchronized Term skip(Term n) {
        start += count(n);
        return EAtom.OK;
    }

    /** peek_head/1: the data at the front without consuming it (badarg when empty). */
    public synchronized Term peekHead() {
        if (start == end) throw ErlangException.badarg();
        return EBitString.of(Arrays.copyOfRange(data, start, end));
    }

    /** find_byte_index/2: {ok, Index} of the first byte equal to the needle, or not_found. */
    public synchronized Term find(Term needle) {
        if (!(needle instanceof ESmall s) || s.value < 0 || s.value > 255) throw ErlangException.badarg();
        for (int i = start; i < end; i++) if ((data[i] & 0xFF) == s.value) return ETuple.of(EAtom.OK, ESmall.of(i - start));
        return EAtom.of("not_found");
    }

    /** try_lock/1: acquired or busy. */
    public synchronized Term tryLock() {
        if (locked) return EAtom.of("busy");
        locked = true;
        return EAtom.of("acquired");
    }

    /** unlock/1: ok, or error:lock_order_violation when not locked. */
    public synchronized Term unlock() {
        if (!locked) throw ErlangException.error(EAtom.of("lock_order_violation"));
        locked = false;
        return EAtom.OK;
    }

    private int count(Term n) {
        if (!(n instanceof ESmall s) || s.value < 0 || s.value > end - start) throw ErlangException.badarg();
        return (int) s.value;
    }
}
