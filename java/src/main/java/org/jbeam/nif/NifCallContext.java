package org.jbeam.nif;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jbeam.bindings.nif.JbeamNif;

/**
 * Per-call state, pooled: a native ErlNifEnv (reused, cleared after each call), the native
 * input buffer the encoded arguments are copied into (binaries in the env point into it), the
 * out-parameters for the result, and the Java-side encoder. Taken from the pool for one call, so
 * nested or concurrent calls each get their own.
 */
final class NifCallContext {
    private static final ConcurrentLinkedQueue<NifCallContext> POOL = new ConcurrentLinkedQueue<>();

    final MemorySegment env;
    final MemorySegment outs;          // [0] = const uint8 *out, [8] = size_t outlen
    final NifCodec codec = new NifCodec();
    private Arena inArena;
    private MemorySegment in;

    private NifCallContext() {
        try { env = (MemorySegment) JbeamNif.ENV_NEW.invokeExact(); } catch (Throwable t) { throw new AssertionError(t); }
        outs = Arena.global().allocate(16, 8);
        newInput(1024);
    }

    private void newInput(long size) {
        if (inArena != null) inArena.close();
        inArena = Arena.ofShared();
        in = inArena.allocate(size, 16);
    }

    /** One spare context per thread: the common case (a scheduler calling NIFs) skips the shared pool. */
    private static final ThreadLocal<NifCallContext[]> SPARE = ThreadLocal.withInitial(() -> new NifCallContext[1]);

    static NifCallContext acquire() {
        NifCallContext[] spare = SPARE.get();
        NifCallContext c = spare[0];
        if (c != null) { spare[0] = null; return c; }
        c = POOL.poll();
        return c != null ? c : new NifCallContext();
    }

    /**
     * Buffers up to this size stay with a pooled context: closing a shared arena is costly (a
     * handshake with every thread), so a context used for 1 MiB inputs must not reallocate per call.
     */
    private static final long KEEP = 16L << 20;

    void release() {
        codec.reset();
        if (codec.buf.length > KEEP) codec.buf = new byte[256];
        if (in.byteSize() > KEEP) newInput(1024);
        NifCallContext[] spare = SPARE.get();
        if (spare[0] == null) spare[0] = this;
        else POOL.offer(this);
    }

    /** Copies the encoded bytes to native memory; returns the native input. */
    MemorySegment input() {
        int n = codec.pos;
        if (n > in.byteSize()) newInput(Math.max(n + (n >> 3), in.byteSize() * 2));
        MemorySegment.copy(codec.buf, 0, in, ValueLayout.JAVA_BYTE, 0, n);
        return in;
    }

    void clearEnv() {
        try { JbeamNif.ENV_CLEAR.invokeExact(env); } catch (Throwable t) { throw new AssertionError(t); }
    }

    /** The result bytes written by jbeam_call. */
    MemorySegment output() {
        MemorySegment p = outs.get(ValueLayout.ADDRESS, 0);
        long len = outs.get(ValueLayout.JAVA_LONG, 8);
        return p.reinterpret(len);
    }
}
