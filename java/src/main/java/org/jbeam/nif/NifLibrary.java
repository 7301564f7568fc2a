package org.jbeam.nif;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.Term;

import static org.jbeam.bindings.nif.JbeamNif.*;

/**
 * A loaded NIF library: an unmodified {@code .so} written against OTP's erl_nif.h, whose
 * {@code enif_*} imports resolve against libjbeam_nif (see ADR 0006). {@link #load} follows
 * erlang:load_nif/2: dlopen, {@code nif_init}, version and module-name checks, the load
 * callback with {@code loadInfo}; failures throw {@link NifLoadException} with OTP's reasons.
 */
public final class NifLibrary {
    public final String module;
    public final Path path;
    /** ErlNifEntry.name, the library's module. */
    public final String entryName;
    public final int major, minor;
    /**
     * Its normal (non-dirty) calls may be critical downcalls reading a large binary argument in
     * place: it imports no erl_nif function that calls back into Java (NifImports; ADR 0006).
     * {@code -Djbeam.nif.heapCalls=false} turns this off.
     */
    final boolean heapCalls;
    /** The library's priv_data slot ({@code void*}), passed to callbacks as {@code void**}. */
    final MemorySegment privp;
    private final MemorySegment handle, entry;
    private final List<NifFunction> functions;

    private NifLibrary(String module, Path path, MemorySegment handle, MemorySegment entry) {
        this.module = module; this.path = path; this.handle = handle; this.entry = entry;
        this.major = entry.get(ValueLayout.JAVA_INT, ENTRY_MAJOR);
        this.minor = entry.get(ValueLayout.JAVA_INT, ENTRY_MINOR);
        this.entryName = cString(entry.get(ValueLayout.ADDRESS, ENTRY_NAME));
        this.privp = Arena.global().allocate(ValueLayout.ADDRESS);
        this.heapCalls = !"false".equals(System.getProperty("jbeam.nif.heapCalls")) && NifImports.noUpcalls(path);
        int n = entry.get(ValueLayout.JAVA_INT, ENTRY_NUM_FUNCS);
        MemorySegment funcs = entry.get(ValueLayout.ADDRESS, ENTRY_FUNCS).reinterpret((long) n * FUNC_SIZE);
        List<NifFunction> fs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long o = i * FUNC_SIZE;
            fs.add(new NifFunction(this, cString(funcs.get(ValueLayout.ADDRESS, o + FUNC_NAME)),
                    funcs.get(ValueLayout.JAVA_INT, o + FUNC_ARITY), funcs.get(ValueLayout.JAVA_INT, o + FUNC_FLAGS),
                    funcs.get(ValueLayout.ADDRESS, o + FUNC_FPTR)));
        }
        this.functions = Collections.unmodifiableList(fs);
    }

    /** Where messages from enif_send go, and how enif_make_ref makes references. */
    public static void setHost(NifHost host) { NifUpcalls.host = host == null ? NifHost.NONE : host; }

    /**
     * Loads the NIF library at {@code so} (".so" is appended when missing, as erlang:load_nif
     * does) for Erlang module {@code module}, running its load callback with {@code loadInfo}.
     */
    public static NifLibrary load(Path so, String module, Term loadInfo) { return load(so, module, loadInfo, null); }

    /**
     * As {@link #load(Path, String, Term)}, for a newer version of a module whose code being
     * replaced has {@code previous} loaded: as erts, the upgrade callback runs instead of load,
     * with the previous instance's priv_data slot (it may read or replace it); a library without
     * one cannot be loaded ({upgrade, "Upgrade not supported by this NIF library."}).
     */
    public static NifLibrary load(Path so, String module, Term loadInfo, NifLibrary previous) {
        String p = so.toString();
        if (!p.endsWith(".so")) p = p + ".so";
        try {
            NifUpcalls.install();
        } catch (Throwable t) {   // libjbeam_nif itself is missing or broken
            throw new NifLoadException("load_failed", "Failed to load NIF library: 'cannot load " + JbeamNif.LIBRARY + ": " + t + "'");
        }
        MemorySegment handle;
        try {
            handle = JbeamNif.dlopen(p, RTLD_NOW);
        } catch (JbeamNif.DlException e) {
            throw new NifLoadException("load_failed", "Failed to load NIF library: '" + e.getMessage() + "'");
        }
        MemorySegment init = JbeamNif.dlsym(handle, "nif_init");
        if (init.equals(MemorySegment.NULL)) init = JbeamNif.dlsym(handle, "_nif_init");
        if (init.equals(MemorySegment.NULL))
            throw new NifLoadException("bad_lib", "Failed to find library init function: '" + JbeamNif.dlerror() + "'");
        MemorySegment entry;
        try {
            entry = ((MemorySegment) linker().downcallHandle(init, FunctionDescriptor.of(ValueLayout.ADDRESS)).invokeExact())
                    .reinterpret(ENTRY_SIZE);
        } catch (Throwable t) { throw new AssertionError(t); }
        NifLibrary lib = new NifLibrary(module, Path.of(p), handle, entry);
        if (lib.major != NIF_MAJOR || lib.minor > NIF_MINOR)
            throw new NifLoadException("bad_lib", "Library version (" + lib.major + "." + lib.minor + ") not compatible (with "
                    + NIF_MAJOR + "." + NIF_MINOR + ").");
        if (!lib.entryName.equals(module))
            throw new NifLoadException("bad_lib", "Library module name '" + lib.entryName + "' does not match calling module '" + module + "'");
        try (Arena a = Arena.ofConfined()) {   // the owner of the resource types it creates
            JbeamNif.LIB_MODULE.invokeExact(lib.privp, a.allocateFrom(module));
        } catch (Throwable t) { throw new AssertionError(t); }
        if (previous != null) {
            MemorySegment upgradeFn = entry.get(ValueLayout.ADDRESS, ENTRY_UPGRADE);
            if (upgradeFn.equals(MemorySegment.NULL))
                throw new NifLoadException("upgrade", "Upgrade not supported by this NIF library.");
            int r = lib.runCallback(upgradeFn, loadInfo, previous.privp);
            if (r != 0) throw new NifLoadException("upgrade", "Library upgrade-call unsuccessful (" + r + ").");
            return lib;
        }
        MemorySegment loadFn = entry.get(ValueLayout.ADDRESS, ENTRY_LOAD);
        if (!loadFn.equals(MemorySegment.NULL)) {
            int r = lib.runCallback(loadFn, loadInfo, null);
            if (r != 0) throw new NifLoadException("load", "Library load-call unsuccessful (" + r + ").");
        }
        return lib;
    }

    /** The load callback, or with {@code oldPrivp} the upgrade callback. */
    private int runCallback(MemorySegment fn, Term info, MemorySegment oldPrivp) {
        NifCallContext c = NifCallContext.acquire();
        try {
            c.codec.encode(info);
            if (oldPrivp != null)
                return (int) JbeamNif.CALL_UPGRADE.invokeExact(c.env, privp, oldPrivp, fn, c.codec.buf, (long) c.codec.pos);
            return (int) JbeamNif.CALL_LOAD.invokeExact(c.env, privp, fn, c.codec.buf, (long) c.codec.pos);
        } catch (Throwable t) {
            throw new AssertionError(t);
        } finally {
            c.clearEnv();
            c.release();
        }
    }

    /** The functions, in ErlNifFunc order. */
    public List<NifFunction> functions() { return functions; }

    /** The function with this name and arity, or null. */
    public NifFunction function(String name, int arity) {
        for (NifFunction f : functions) if (f.arity == arity && f.name.equals(name)) return f;
        return null;
    }

    /** The library's priv_data pointer (0 when unset). */
    public long privData() { return privp.get(ValueLayout.ADDRESS, 0).address(); }

    private final java.util.concurrent.atomic.AtomicBoolean unloaded = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Runs the unload callback once (when the module code that loaded this instance is purged).
     * The library stays mapped: resources of its types may outlive the module, and their
     * destructors are its code (erts too keeps a library while its resources live).
     */
    public void unload() {
        if (!unloaded.compareAndSet(false, true)) return;
        try { JbeamNif.LIB_UNLOADED.invokeExact(privp); } catch (Throwable t) { throw new AssertionError(t); }
        MemorySegment fn = entry.get(ValueLayout.ADDRESS, ENTRY_UNLOAD);
        if (fn.equals(MemorySegment.NULL)) return;
        NifCallContext c = NifCallContext.acquire();
        try {
            JbeamNif.CALL_UNLOAD.invokeExact(c.env, privp, fn);
        } catch (Throwable t) {
            throw new AssertionError(t);
        } finally {
            c.clearEnv();
            c.release();
        }
    }

    /** Scheduled calls (enif_schedule_nif) that asked for a dirty scheduler, process-wide. */
    public static long dirtyJobs() {
        try { return (long) JbeamNif.DIRTY_JOBS.invokeExact(); } catch (Throwable t) { throw new AssertionError(t); }
    }

    MemorySegment handle() { return handle; }

    private static String cString(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? "" : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    @Override public String toString() { return "NifLibrary(" + module + ", " + path + ")"; }
}
