package org.jbeam.zlib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import org.jbeam.bindings.zlib.Zlib;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * One zlib stream of OTP's zlib module (erts zlib_nif.c's zlib_data_t): a {@code z_stream} in
 * native memory driven through the system libz, the input queue that enqueue_nif fills, the
 * controlling process, and the "stash" term zlib.erl parks between calls. Erlang holds it as a
 * reference; like an erts resource it lives while the reference does (a Cleaner ends the native
 * stream when the reference is collected).
 */
final class ZStream {
    enum State { NONE, DEFLATE, INFLATE, CLOSED }
    static final int EOS_ERROR = 0, EOS_RESET = 1, EOS_CUT = 2;

    private static final int TAG = 0x7A11B000;
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final Map<ERef, ZStream> LIVE = Collections.synchronizedMap(new WeakHashMap<>());
    private static final Cleaner CLEANER = Cleaner.create();

    /** Native memory: the z_stream itself. Closed by the Cleaner (after ending the stream). */
    private static final class Native implements Runnable {
        final Arena arena = Arena.ofShared();
        final MemorySegment strm = arena.allocate(Zlib.Z_STREAM_SIZE, 16);
        State state = State.NONE;

        void end() {
            if (state == State.DEFLATE) Zlib.deflateEnd(strm);
            else if (state == State.INFLATE) Zlib.inflateEnd(strm);
        }
        @Override public void run() {
            end();
            arena.close();
        }
    }

    private final Native n = new Native();
    final MemorySegment strm = n.strm;
    EPid controller;
    int eosBehavior = EOS_CUT;
    boolean eosSeen, rawStream, wantInputCrc, wantOutputCrc;
    final CRC32 inputCrc = new CRC32(), outputCrc = new CRC32();
    int bufSize = 4000; // the deprecated inflateChunk buffer size (getBufSize/setBufSize)
    /** Queued input: byte arrays, the first one read from {@link #headOffset}. */
    final ArrayDeque<byte[]> input = new ArrayDeque<>();
    int headOffset;
    long queued;
    Term stash;

    private ZStream(EPid controller) {
        this.controller = controller;
        strm.set(ValueLayout.JAVA_INT, Zlib.DATA_TYPE, Zlib.Z_BINARY);
    }

    State state() { return n.state; }
    void state(State s) { n.state = s; }

    /** open_nif/0. */
    static ERef open(EPid controller) {
        long id = NEXT.getAndIncrement();
        ERef ref = new ERef(EAtom.NONODE, 0, new int[] {(int) (id & 0x3FFFF), (int) (id >>> 18), TAG});
        ZStream z = new ZStream(controller);
        LIVE.put(ref, z);
        CLEANER.register(ref, z.n);
        return ref;
    }

    /** The stream a reference names, badarg for anything else. */
    static ZStream of(Term t) {
        ZStream z = t instanceof ERef r && r.idCount() == 3 && r.id(2) == TAG ? LIVE.get(r) : null;
        if (z == null) throw ErlangException.badarg();
        return z;
    }

    /** close_nif: end the native stream now; the reference stays valid (and closed). */
    void close() {
        n.end();
        if (n.state != State.CLOSED) {
            stash = null;
            n.state = State.CLOSED;
        }
    }

    /** Drops queued input and the stash (zlib_reset_input). */
    void resetInput() {
        input.clear();
        headOffset = 0;
        queued = 0;
        stash = null;
    }

    void enqueue(byte[] b) {
        if (b.length == 0) return;
        input.addLast(b);
        queued += b.length;
    }

    /** Removes {@code n} bytes from the front of the queue. */
    void dequeue(long count) {
        while (count > 0) {
            byte[] h = input.peekFirst();
            int avail = h.length - headOffset;
            if (count >= avail) { input.pollFirst(); headOffset = 0; count -= avail; queued -= avail; }
            else { headOffset += (int) count; queued -= count; count = 0; }
        }
    }
}
