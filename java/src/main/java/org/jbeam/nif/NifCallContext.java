package org.jbeam.nif;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.interp.Interpreter;
import org.jbeam.term.EAtom;
import org.jbeam.term.ENil;
import org.jbeam.term.ESmall;
import org.jbeam.term.Term;

/**
 * Per-call state, pooled: a native ErlNifEnv (reused, cleared after each call), the native call
 * block {@code jb_callctx} (nif_codec.c) that carries the call's parameters and results across
 * in one pointer, and the encoder whose native buffer holds the arguments that are not
 * immediates (binaries in the env point into it). Taken from the pool for one call, so nested
 * or concurrent calls each get their own; a thread keeps one spare, so a scheduler calling NIFs
 * in a loop reuses the same context, env and buffers without synchronization or allocation.
 */
final class NifCallContext {
    private static final ConcurrentLinkedQueue<NifCallContext> POOL = new ConcurrentLinkedQueue<>();

    // jb_callctx field offsets (nif_codec.c)
    private static final long ENV = 0, PRIVP = 8, SELF = 16, FP = 24, IN = 32, INLEN = 40, OUT = 48, OUTLEN = 56,
            RESULT = 64, ARGC = 72, MODE = 76, ARGW = 80;
    /** erts' limit on NIF arity. */
    private static final int MAX_ARGS = 255;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final long SMALL_MAX = (1L << 61) - 1, SMALL_MIN = -(1L << 61);

    final MemorySegment env;
    /** The jb_callctx; global scope (contexts live as long as the VM), so accesses need no liveness check. */
    private final MemorySegment cx;
    private final long cxAddr;
    final NifCodec codec = new NifCodec();

    private NifCallContext() {
        try { env = (MemorySegment) JbeamNif.ENV_NEW.invokeExact(); } catch (Throwable t) { throw new AssertionError(t); }
        cx = Arena.global().allocate(ARGW + 8L * MAX_ARGS, 16);
        cxAddr = cx.address();
        cx.set(LONG, ENV, env.address());
    }

    /** One spare context per thread: the common case (a scheduler calling NIFs) skips the shared pool. */
    private static final ThreadLocal<NifCallContext[]> SPARE = ThreadLocal.withInitial(() -> new NifCallContext[1]);

    /** The thread that took this context and that thread's spare slot (see {@link #releaseLocal}). */
    private Thread owner;
    private NifCallContext[] home;
    /** Or the interpreter whose {@code nifSpare} slot this context goes back to (see {@link #acquire(org.jbeam.runtime.ErlProcess)}). */
    private Interpreter slot;

    /**
     * A context for a call by {@code proc} (may be null). On a scheduler thread the spare context
     * lives in the thread's {@link Interpreter}, not in a ThreadLocal: before C2 has compiled the
     * caller, ThreadLocal.get costs a JNI call (Reference.refersTo) and a map probe per NIF call
     * (ADR 0026). Only the interpreter's own thread touches that slot.
     */
    static NifCallContext acquire(org.jbeam.runtime.ErlProcess proc) {
        Interpreter it;
        if (proc == null || (it = proc.interpreter) == null || it.thread != Thread.currentThread()) return acquire();
        NifCallContext c = (NifCallContext) it.nifSpare;
        if (c != null) {
            // a context in the slot already names this thread and interpreter (see release):
            // the common call writes nothing into it but the slot (ADR 0038)
            it.nifSpare = null;
            return c;
        }
        c = pooled();
        c.owner = it.thread;
        c.slot = it;
        return c;
    }

    /** A context from the shared pool or a new one (out of line: acquire is inlined into every compiled NIF call site, ADR 0031). */
    private static NifCallContext pooled() {
        NifCallContext c = POOL.poll();
        return c != null ? c : new NifCallContext();
    }

    static NifCallContext acquire() {
        NifCallContext[] spare = SPARE.get();
        NifCallContext c = spare[0];
        if (c != null) spare[0] = null;
        else if ((c = POOL.poll()) == null) c = new NifCallContext();
        c.owner = Thread.currentThread();
        c.home = spare;
        c.slot = null;
        return c;
    }

    /** {@link #release}, skipping the thread-local lookup when still on the thread that took it (the common case). */
    void releaseLocal() {
        if (Thread.currentThread() != owner || codec.pos != 0) { release(); return; }
        Interpreter it = slot;
        if (it != null) {
            if (it.nifSpare != null) { release(); return; }
            it.nifSpare = this;
            return;
        }
        if (home[0] != null) { release(); return; }
        home[0] = this;
    }

    // enif_self's pid id for the last process that called through this context: a loop calling
    // NIFs skips the opaque-term table (the context belongs to one thread at a time).
    // (The pid, not the process: NifOpaque's table keeps pids alive anyway.)
    private Term lastPid;
    private long lastSelf;

    long selfId(org.jbeam.runtime.ErlProcess proc) {
        Term pid = proc.pid;
        if (pid == lastPid) return lastSelf;
        long id = NifOpaque.id(pid);
        lastPid = pid;
        lastSelf = id;
        return id;
    }

    /**
     * Buffers up to this size stay with a pooled context (a context used for 1 MiB inputs must
     * not reallocate per call); a bigger one is freed when the call ends.
     */
    private static final long KEEP = 16L << 20;

    void release() {
        codec.reset();
        codec.shrink(KEEP);
        Interpreter it = slot;
        if (it != null && it.thread == Thread.currentThread() && it.nifSpare == null) {
            owner = it.thread;   // the slot's invariant (acquire relies on it)
            it.nifSpare = this;
            return;
        }
        slot = null;
        NifCallContext[] spare = SPARE.get();
        if (spare[0] == null) spare[0] = this;
        else POOL.offer(this);
    }

    /**
     * Argument {@code i}: an immediate (small integer, atom, []) goes across as its ERL_NIF_TERM
     * word, needing no decoding in C; anything else is encoded into the flat buffer (word 0).
     */
    void arg(int i, Term t) { arg(i, t, false); }

    /** Binaries from this size on are read in place when the call may use the heap (see {@link #arg(int, Term, boolean)}). */
    static final int HEAP_MIN = 2048;

    /**
     * As {@link #arg(int, Term)}; {@code heapOk}: this call may be a critical downcall with heap
     * access (a normal call of a library that never calls back into Java), so the first large
     * binary argument is read by C in place, not copied.
     */
    void arg(int i, Term t, boolean heapOk) {
        if (heapOk && codec.heapArr == null && t instanceof org.jbeam.term.EBitString b && b.isBinary() && b.byteSize() >= HEAP_MIN) {
            codec.heapBinary(b);
            cx.set(LONG, ARGW + 8L * i, 0);
            return;
        }
        long w = word(t);
        if (w == 0) codec.encode(t);
        cx.set(LONG, ARGW + 8L * i, w);
    }

    /** The ERL_NIF_TERM of an immediate (small integer, atom, []), or 0 for a term that must be encoded. */
    static long word(Term t) {
        if (t instanceof ESmall s) return s.value >= SMALL_MIN && s.value <= SMALL_MAX ? (s.value << 2) | 1 : 0;
        if (t instanceof EAtom a) return ((long) NifAtoms.index(a) << 6) | 0x0B; // erts' atom tag (nif_internal.h)
        return t == ENil.NIL ? 3 : 0;
    }

    /** jbeam_call: runs {@code fp} with the {@code argc} arguments set by {@link #arg}. */
    int call(long privp, long self, long fp, int argc, int mode) throws Throwable {
        MemorySegment m = cx;
        // Only what changed since this context's last call is written (a loop calling one NIF
        // from one process writes the arguments and the input length).
        if (fp != lastFp || privp != lastPrivp || argc != lastArgc) {   // one C function may serve several arities or loads
            m.set(LONG, FP, fp); m.set(LONG, PRIVP, privp); m.set(ValueLayout.JAVA_INT, ARGC, argc);
            lastFp = fp; lastPrivp = privp; lastArgc = argc;
        }
        if (self != lastSelfW) { m.set(LONG, SELF, self); lastSelfW = self; }
        long in = codec.address();
        if (in != lastIn) { m.set(LONG, IN, in); lastIn = in; }
        m.set(LONG, INLEN, codec.pos);
        m.set(ValueLayout.JAVA_INT, MODE, mode);
        byte[] h = codec.heapArr;
        if (h == null) return (int) JbeamNif.CALL.invokeExact(cxAddr);
        return (int) JbeamNif.CALL_HEAP.invokeExact(cxAddr, MemorySegment.ofArray(h), (long) codec.heapOff, (long) codec.heapLen);
    }

    /**
     * jbeam_call_imm (ADR 0022): a call of at most 3 arguments that are all immediates ({@link #word}),
     * passed as downcall parameters: nothing is written to the call block per call but what
     * changed since the last call, and an immediate result comes back as the return value.
     * @return the result's ERL_NIF_TERM (low bits != 0; {@link #decode}), or {@code status << 2}
     */
    long callImm(long privp, long self, long fp, int argc, int mode, long w0, long w1, long w2) throws Throwable {
        MemorySegment m = cx;
        if (fp != lastFp || privp != lastPrivp || argc != lastArgc) {
            m.set(LONG, FP, fp); m.set(LONG, PRIVP, privp); m.set(ValueLayout.JAVA_INT, ARGC, argc);
            lastFp = fp; lastPrivp = privp; lastArgc = argc;
        }
        if (self != lastSelfW) { m.set(LONG, SELF, self); lastSelfW = self; }
        return (long) JbeamNif.CALL_IMM.invokeExact(cxAddr, mode, w0, w1, w2);
    }

    private long lastFp, lastPrivp, lastSelfW = -1, lastIn;
    private int lastArgc = -1;

    /** jbeam_resume: continues the env's scheduled step on a thread of kind {@code mode}. */
    int resume(int mode) throws Throwable {
        cx.set(ValueLayout.JAVA_INT, MODE, mode);
        return (int) JbeamNif.RESUME.invokeExact(cxAddr);
    }

    /** The immediate result word (status bit IMM): a small integer, an atom or []. */
    Term immediate() { return decode(cx.get(LONG, RESULT)); }

    /** The term of an immediate ERL_NIF_TERM (small integer, atom or []). */
    static Term decode(long w) {
        if ((w & 3) == 1) return ESmall.of(w >> 2);
        if ((w & 0x3F) == 0x0B) return NifAtoms.atom((int) (w >>> 6));
        return ENil.NIL;
    }

    void clearEnv() {
        try { JbeamNif.ENV_CLEAR.invokeExact(env); } catch (Throwable t) { throw new AssertionError(t); }
    }

    /** Decodes the serialized result written by jbeam_call (read in place, see {@link NifCodec#ALL}). */
    Term decodeOutput(org.jbeam.runtime.ErlProcess caller) {
        return NifCodec.decodeResult(cx.get(LONG, OUT), cx.get(LONG, OUTLEN), caller);
    }
}
