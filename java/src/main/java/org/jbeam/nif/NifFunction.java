package org.jbeam.nif;

import java.lang.foreign.MemorySegment;

import org.jbeam.interp.Trap;
import org.jbeam.runtime.AsyncCall;
import org.jbeam.runtime.DirtyPools;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.ECons;
import org.jbeam.term.ENil;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * One native function of a loaded NIF library ({@code ErlNifFunc}). {@link #call} encodes the
 * arguments, runs the function (and any functions it schedules with enif_schedule_nif) in a
 * native env, and decodes the result; exceptions raised by the NIF become {@link ErlangException}s.
 *
 * <p>Dirty scheduling (ADR 0008): a function flagged ERL_NIF_DIRTY_JOB_CPU/IO_BOUND, or a
 * continuation scheduled with those flags, runs on the VM's dirty CPU/IO pool while the calling
 * process is suspended on an {@link AsyncCall}; a continuation scheduled with flags 0 from a
 * dirty thread comes back to the process's scheduler ({@link Trap#then}). The call's env and
 * input buffer ({@link NifCallContext}) travel with the call and are used by one thread at a time.
 */
public final class NifFunction {
    /** ERL_NIF_DIRTY_JOB_CPU_BOUND / IO_BOUND in {@link #flags}. */
    public static final int DIRTY_CPU = 1, DIRTY_IO = 2;
    /** jbeam_call/jbeam_resume status: the continuation wants a thread of kind {@code status & 3}. */
    private static final int RESCHEDULE = 16;
    /** Mode bit: a normal scheduler whose process can yield, so flags-0 continuations come back to Java. */
    private static final int MAY_YIELD = 4;
    /** Status bit: the env was cleared natively already (see nif_codec.c finish). */
    private static final int CLEARED = 64;
    /** Status bit: the result is the immediate word in the call block, not serialized. */
    private static final int IMM = 128;

    public final NifLibrary library;
    public final String name;
    public final int arity;
    /** ErlNifFunc.flags: 0 or a dirty-scheduler flag. */
    public final int flags;
    final MemorySegment fptr;
    private final long fp, privp;

    NifFunction(NifLibrary library, String name, int arity, int flags, MemorySegment fptr) {
        this.library = library; this.name = name; this.arity = arity; this.flags = flags; this.fptr = fptr;
        this.fp = fptr.address(); this.privp = library.privp.address();
    }

    public boolean isDirty() { return flags != 0; }

    /**
     * Calls the NIF. {@code proc} is the calling process (what enif_self returns), or null.
     * When {@code proc} is running in an interpreter, dirty work is moved to the dirty pools and
     * this returns a {@link Trap} the interpreter suspends on; otherwise (no process, tests) all
     * steps run on the calling thread.
     * @throws ErlangException error:Reason for enif_make_badarg (badarg) and enif_raise_exception
     */
    public Term call(ErlProcess proc, Term... args) {
        if (args.length != arity) throw ErlangException.badarg();
        if (arity <= 3) return fixed(proc, arity > 0 ? args[0] : null, arity > 1 ? args[1] : null, arity > 2 ? args[2] : null);
        NifCallContext c = NifCallContext.acquire(proc);
        try {
            boolean heapOk = flags == 0 && library.heapCalls;
            for (int i = 0; i < args.length; i++) c.arg(i, args[i], heapOk);
        } catch (RuntimeException | Error e) {
            c.release();
            throw e;
        }
        long self = proc == null ? 0 : c.selfId(proc);
        if (flags != 0 && canSuspend(proc)) return dispatch(proc, c, args, flags, self, true);
        return proceed(proc, c, args, start(c, self, canSuspend(proc) ? MAY_YIELD : 0));
    }

    /**
     * Fixed-arity entry points (arity 0 to 3, the interpreter's BIF shapes): the arguments go
     * straight into the call block, and an argument array exists only if the call leaves the
     * common path (an exception frame, a dirty or rescheduled step).
     */
    public Term call0(ErlProcess proc) { return flags == 0 ? immediates(proc, null, null, null, 1, 1, 1) : encoded(proc, null, null, null); }

    // The all-immediate test is made here, not in a shared helper: until C2 has compiled the
    // caller, each extra frame on this path costs (ADR 0026).
    public Term call1(ErlProcess proc, Term a) {
        long w0;
        if (flags == 0 && (w0 = NifCallContext.word(a)) != 0) return immediates(proc, a, null, null, w0, 1, 1);
        return encoded(proc, a, null, null);
    }

    public Term call2(ErlProcess proc, Term a, Term b) {
        long w0, w1;
        if (flags == 0 && (w0 = NifCallContext.word(a)) != 0 && (w1 = NifCallContext.word(b)) != 0)
            return immediates(proc, a, b, null, w0, w1, 1);
        return encoded(proc, a, b, null);
    }

    public Term call3(ErlProcess proc, Term a, Term b, Term d) {
        long w0, w1, w2;
        if (flags == 0 && (w0 = NifCallContext.word(a)) != 0 && (w1 = NifCallContext.word(b)) != 0
                && (w2 = NifCallContext.word(d)) != 0)
            return immediates(proc, a, b, d, w0, w1, w2);
        return encoded(proc, a, b, d);
    }

    private Term fixed(ErlProcess proc, Term a, Term b, Term d) {
        return switch (arity) {
            case 0 -> call0(proc);
            case 1 -> call1(proc, a);
            case 2 -> call2(proc, a, b);
            default -> call3(proc, a, b, d);
        };
    }

    /** A call with at least one argument to encode, or a dirty one. */
    private Term encoded(ErlProcess proc, Term a, Term b, Term d) {
        NifCallContext c = NifCallContext.acquire(proc);
        try {
            boolean heapOk = flags == 0 && library.heapCalls;
            if (arity > 0) c.arg(0, a, heapOk);
            if (arity > 1) c.arg(1, b, heapOk);
            if (arity > 2) c.arg(2, d, heapOk);
        } catch (RuntimeException | Error e) {
            c.release();
            throw e;
        }
        long self = proc == null ? 0 : c.selfId(proc);
        boolean susp = canSuspend(proc);
        if (flags != 0 && susp) return dispatch(proc, c, args(a, b, d), flags, self, true);
        int st = start(c, self, susp ? MAY_YIELD : 0);
        if (st == (IMM | CLEARED)) {
            Term t = c.immediate();
            c.releaseLocal();
            return t;
        }
        return proceed(proc, c, args(a, b, d), st);
    }

    /**
     * The common case (ADR 0022): a normal NIF whose arguments are all immediates. They go across
     * as downcall parameters, and an immediate result comes back as the return value; anything
     * else (an exception, a boxed result, a continuation) continues as after {@link #start}.
     */
    private Term immediates(ErlProcess proc, Term a, Term b, Term d, long w0, long w1, long w2) {
        NifCallContext c = NifCallContext.acquire(proc);
        long self = proc == null ? 0 : c.selfId(proc);
        long r;
        try {
            r = c.callImm(privp, self, fp, arity, canSuspend(proc) ? MAY_YIELD : 0, w0, w1, w2);
        } catch (Throwable t) {
            c.clearEnv(); c.release();
            throw rethrow(t);
        }
        if ((r & 3) != 0) {
            Term t = NifCallContext.decode(r);
            c.releaseLocal();
            return t;
        }
        return proceed(proc, c, args(a, b, d), (int) (r >> 2));
    }

    private Term[] args(Term a, Term b, Term d) {
        return switch (arity) {
            case 0 -> new Term[0];
            case 1 -> new Term[] {a};
            case 2 -> new Term[] {a, b};
            default -> new Term[] {a, b, d};
        };
    }

    private static boolean canSuspend(ErlProcess proc) { return proc != null && proc.interpreter != null; }

    /** First step: decode the arguments into the env and run the function on this thread (of kind {@code mode}). */
    private int start(NifCallContext c, long self, int mode) {
        try {
            return c.call(privp, self, fp, arity, mode);
        } catch (Throwable t) {
            c.clearEnv(); c.release();
            throw rethrow(t);
        }
    }

    /** A later step: run the env's scheduled continuation on this thread (of kind {@code mode}). */
    private static int resume(NifCallContext c, int mode) {
        try {
            return c.resume(mode);
        } catch (Throwable t) {
            c.clearEnv(); c.release();
            throw rethrow(t);
        }
    }

    /** On the process's scheduler (or with no process): runs normal steps here until the call ends or goes dirty. */
    private Term proceed(ErlProcess proc, NifCallContext c, Term[] args, int st) {
        while (st >= RESCHEDULE && st < CLEARED) {
            int k = st & 3;
            if (k != 0 && canSuspend(proc)) return dispatch(proc, c, args, k, 0, false);
            // flags 0: a yielding NIF; as in erts, other processes run before its next step
            if (canSuspend(proc)) return Trap.yieldThen(() -> proceed(proc, c, args, resume(c, MAY_YIELD)));
            st = resume(c, k);
        }
        return finish(proc, c, st, args);
    }

    /** Moves the call to the dirty pool of kind {@code mode}; the process waits for the outcome. */
    private Trap dispatch(ErlProcess proc, NifCallContext c, Term[] args, int mode, long self, boolean first) {
        AsyncCall call = proc.beginAsync();
        proc.vm.dirty.execute(mode == DIRTY_CPU ? DirtyPools.Kind.CPU : DirtyPools.Kind.IO, () -> {
            Object outcome;
            try {
                int st = first ? start(c, self, mode) : resume(c, mode);
                // Another kind of thread wanted: continue via the process's scheduler, which
                // either runs the step itself (flags 0) or dispatches to the other pool.
                outcome = st >= RESCHEDULE && st < CLEARED ? Trap.then(() -> proceed(proc, c, args, st)) : finish(proc, c, st, args);
            } catch (ErlangException e) {
                outcome = e;
            } catch (RuntimeException | Error e) {
                proc.vm.logInternal(e);
                outcome = ErlangException.error(ETuple.of(EAtom.of("dirty_job_failed"), EBitString.ofUtf8(String.valueOf(e))));
            }
            boolean delivered = outcome instanceof ErlangException e ? call.fail(e) : call.complete((Term) outcome);
            if (!delivered && outcome instanceof Trap) { c.clearEnv(); c.release(); }   // the process died mid-call
        });
        return Trap.await(call);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    /**
     * Reads the final result (or exception) and gives the context back. A result holding
     * resources makes {@code proc} a holder whose exit prompts their destructors ({@link NifReaper}).
     */
    private Term finish(ErlProcess proc, NifCallContext c, int st, Term[] args) {
        boolean cleared = st >= 0 && (st & CLEARED) != 0;
        if (st == (IMM | CLEARED)) {   // the common case of a small/atom result: nothing to decode or clear
            Term t = c.immediate();
            c.releaseLocal();
            return t;
        }
        boolean imm = st >= 0 && (st & IMM) != 0;
        if (st >= 0) st &= ~(CLEARED | IMM);
        try {
            if (st < 0) throw new IllegalStateException("NIF " + this + ": " + (st == -1 ? "bad argument encoding" : "unencodable result"));
            Term t = imm ? c.immediate() : c.decodeOutput(proc);
            if (st == 1) {
                ErlangException e = ErlangException.error(t);
                // OTP's frame: the NIF itself, with its arguments (also when raised on a dirty thread).
                e.frameModule = EAtom.of(library.module); e.frameFunction = EAtom.of(name); e.frameArgs = ECons.of(args);
                e.errorInfo = ENil.NIL;
                e.skipCurrentFrame = true;   // the stub the NIF replaced is not a frame of its own
                throw e;
            }
            return t;
        } finally {
            if (!cleared) c.clearEnv();
            c.release();
        }
    }

    @Override public String toString() { return library.module + ":" + name + "/" + arity; }
}
