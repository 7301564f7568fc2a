package org.jbeam.nif;

import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.Term;

/**
 * One native function of a loaded NIF library ({@code ErlNifFunc}). {@link #call} encodes the
 * arguments, runs the function (and any functions it schedules with enif_schedule_nif) in a
 * native env, and decodes the result; exceptions raised by the NIF become {@link ErlangException}s.
 */
public final class NifFunction {
    /** ERL_NIF_DIRTY_JOB_CPU_BOUND / IO_BOUND in {@link #flags}. */
    public static final int DIRTY_CPU = 1, DIRTY_IO = 2;

    public final NifLibrary library;
    public final String name;
    public final int arity;
    /** ErlNifFunc.flags: 0 or a dirty-scheduler flag (run on the calling thread for now). */
    public final int flags;
    final MemorySegment fptr;

    NifFunction(NifLibrary library, String name, int arity, int flags, MemorySegment fptr) {
        this.library = library; this.name = name; this.arity = arity; this.flags = flags; this.fptr = fptr;
    }

    public boolean isDirty() { return flags != 0; }

    /**
     * Calls the NIF. {@code proc} is the calling process (what enif_self returns), or null.
     * @throws ErlangException error:Reason for enif_make_badarg (badarg) and enif_raise_exception
     */
    public Term call(ErlProcess proc, Term... args) {
        if (args.length != arity) throw ErlangException.badarg();
        NifCallContext c = NifCallContext.acquire();
        boolean envDirty = false;
        try {
            for (Term a : args) c.codec.encode(a);
            MemorySegment in = c.input();
            long self = proc == null ? 0 : NifOpaque.id(proc.pid);
            envDirty = true;
            int st = (int) JbeamNif.CALL.invokeExact(c.env, library.privp, self, fptr, arity, in, (long) c.codec.pos,
                    c.outs, c.outs.asSlice(8));
            if (st < 0) throw new IllegalStateException("NIF " + this + ": " + (st == -1 ? "bad argument encoding" : "unencodable result"));
            Term t = NifCodec.decode(c.output());
            if (st == 1) throw ErlangException.error(t);
            return t;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        } finally {
            if (envDirty) c.clearEnv();
            c.release();
        }
    }

    @Override public String toString() { return library.module + ":" + name + "/" + arity; }
}
