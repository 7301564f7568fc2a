package org.jbeam.bindings.nif;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * FFM bindings to libc's dynamic loader and to {@code libjbeam_nif.so} (native/nif/), jbeam's
 * implementation of the erl_nif API. The library is dlopen'ed with {@code RTLD_NOW|RTLD_GLOBAL}
 * (System.load would not make its symbols global) so that NIF libraries opened afterwards
 * resolve their undefined {@code enif_*} symbols against it. Located by the system property
 * {@code jbeam.nativeDir} (Maven's target/native), else {@code $JBEAM_HOME/target/native}.
 */
public final class JbeamNif {
    private JbeamNif() {}

    public static final int RTLD_LAZY = 1, RTLD_NOW = 2, RTLD_GLOBAL = 0x100;
    public static final String LIBRARY = "libjbeam_nif.so";

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    public static final MethodHandle DLOPEN = LINKER.downcallHandle(LIBC.find("dlopen").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
    public static final MethodHandle DLSYM = LINKER.downcallHandle(LIBC.find("dlsym").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    public static final MethodHandle DLERROR = LINKER.downcallHandle(LIBC.find("dlerror").orElseThrow(),
            FunctionDescriptor.of(ADDRESS));
    public static final MethodHandle DLCLOSE = LINKER.downcallHandle(LIBC.find("dlclose").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    /** dlopen; returns the handle or throws {@link DlException} with dlerror()'s message. */
    public static MemorySegment dlopen(String path, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = (MemorySegment) DLOPEN.invokeExact(a.allocateFrom(path), flags);
            if (h.equals(MemorySegment.NULL)) throw new DlException(dlerror());
            return h;
        } catch (DlException e) { throw e; } catch (Throwable t) { throw new AssertionError(t); }
    }

    /** dlsym; NULL when absent (the message is then in {@link #lastError}). */
    public static MemorySegment dlsym(MemorySegment handle, String name) {
        try (Arena a = Arena.ofConfined()) {
            dlerror();
            return (MemorySegment) DLSYM.invokeExact(handle, a.allocateFrom(name));
        } catch (Throwable t) { throw new AssertionError(t); }
    }

    public static String dlerror() {
        try {
            MemorySegment m = (MemorySegment) DLERROR.invokeExact();
            return m.equals(MemorySegment.NULL) ? null : m.reinterpret(4096).getString(0);
        } catch (Throwable t) { throw new AssertionError(t); }
    }

    public static final class DlException extends RuntimeException {
        public DlException(String msg) { super(msg); }
    }

    // ---- libjbeam_nif ----
    public static final MemorySegment HANDLE = openSelf();

    /**
     * Opens libjbeam_nif.so, after the libraries erts' beam.smp is linked against (ldd on Debian's OTP 25): NIF libraries built for
     * erl may leave their symbols undefined and rely on the emulator having loaded them (p1_zlib's
     * ezlib.so calls zlib's inflate without linking libz), so they are made global first, as in erl.
     * A missing one is skipped: only a NIF library that needs it then fails, with dlopen's message.
     */
    private static MemorySegment openSelf() {
        // (a local, not a static field: HANDLE's initializer runs before later static fields are set)
        String[] emulatorLibs = {"libz.so.1", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"};
        for (String lib : emulatorLibs) {
            try {
                dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
            } catch (DlException absent) {
                // not installed here: only a NIF library that needs it fails
            }
        }
        String dir = System.getProperty("jbeam.nativeDir");
        if (dir == null) {
            String home = System.getenv("JBEAM_HOME");
            dir = (home != null ? home : ".") + "/target/native";
        }
        Path p = Path.of(dir, "native", LIBRARY);
        if (!Files.exists(p)) p = Path.of(dir, LIBRARY);
        return dlopen(p.toAbsolutePath().toString(), RTLD_NOW | RTLD_GLOBAL);
    }

    private static MethodHandle fn(String name, FunctionDescriptor fd) {
        MemorySegment s = dlsym(HANDLE, name);
        if (s.equals(MemorySegment.NULL)) throw new UnsatisfiedLinkError(name + " not in " + LIBRARY);
        return LINKER.downcallHandle(s, fd);
    }

    /** {@code uint32_t jbeam_atom_intern(const char *utf8, size_t len)} */
    public static final MethodHandle ATOM_INTERN = fn("jbeam_atom_intern", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    /** {@code const char *jbeam_atom_name(uint32_t ix, size_t *len)} */
    public static final MethodHandle ATOM_NAME = fn("jbeam_atom_name", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
    /** {@code ErlNifEnv *jbeam_env_new(void)} */
    public static final MethodHandle ENV_NEW = fn("jbeam_env_new", FunctionDescriptor.of(ADDRESS));
    /** {@code void jbeam_env_free(ErlNifEnv *)} */
    public static final MethodHandle ENV_FREE = fn("jbeam_env_free", FunctionDescriptor.ofVoid(ADDRESS));
    /** {@code void jbeam_env_clear(ErlNifEnv *)} */
    public static final MethodHandle ENV_CLEAR = fn("jbeam_env_clear", FunctionDescriptor.ofVoid(ADDRESS));
    /** {@code int jbeam_call(jb_callctx *cx)}: one NIF call, parameters and results in cx (nif_codec.c) */
    public static final MethodHandle CALL = fn("jbeam_call", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    /**
     * {@code int64_t jbeam_call_imm(jb_callctx *cx, int mode, a0, a1, a2)}: a call whose (at most 3)
     * arguments are all immediates, passed as parameters; returns an immediate result itself
     * (low bits != 0) or {@code status << 2} (nif_codec.c; ADR 0022)
     */
    public static final MethodHandle CALL_IMM = fn("jbeam_call_imm",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    /**
     * {@code int jbeam_call_heap(jb_callctx *cx, const uint8 *heap, size_t off, size_t len)}: jbeam_call
     * with one binary argument read in place from a Java array ({@code len} bytes at {@code off}).
     * A critical downcall with heap access: only for NIF libraries that cannot call back into Java
     * (the caller checks; ADR 0006).
     */
    public static final MethodHandle CALL_HEAP = LINKER.downcallHandle(dlsym(HANDLE, "jbeam_call_heap"),
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG), Linker.Option.critical(true));
    /** {@code int jbeam_resume(jb_callctx *cx)}: continues a rescheduled call */
    public static final MethodHandle RESUME = fn("jbeam_resume", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    /** {@code int jbeam_call_load(env, void **privp, load_fp, const uint8 *in, size_t inlen)} */
    public static final MethodHandle CALL_LOAD = fn("jbeam_call_load", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
    /** {@code int jbeam_call_upgrade(env, void **privp, void **old_privp, upgrade_fp, const uint8 *in, size_t inlen)} */
    public static final MethodHandle CALL_UPGRADE = fn("jbeam_call_upgrade", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
    /** {@code void jbeam_call_unload(env, void **privp, unload_fp)} */
    public static final MethodHandle CALL_UNLOAD = fn("jbeam_call_unload", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
    /** {@code void jbeam_lib_module(void **privp, const char *module)}: whose resource types a library creates */
    public static final MethodHandle LIB_MODULE = fn("jbeam_lib_module", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    /** {@code void jbeam_lib_unloaded(void **privp)}: the instance's resource types can no longer be opened. */
    public static final MethodHandle LIB_UNLOADED = fn("jbeam_lib_unloaded", FunctionDescriptor.ofVoid(ADDRESS));
    /** {@code void jbeam_set_callbacks(atom_exists, send, make_ref)} */
    public static final MethodHandle SET_CALLBACKS = fn("jbeam_set_callbacks", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
    /** {@code void jbeam_set_term_callbacks(to_etf, from_etf, whereis, phash2)} */
    public static final MethodHandle SET_TERM_CALLBACKS = fn("jbeam_set_term_callbacks", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    /** {@code void *jbeam_malloc(size_t)}: buffers handed to C, which frees them */
    public static final MethodHandle MALLOC = fn("jbeam_malloc", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    /** libc free, for buffers from {@link #malloc}; critical: it never calls back into Java. */
    private static final MethodHandle FREE = LINKER.downcallHandle(LIBC.find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(JAVA_LONG), Linker.Option.critical(false));
    private static final MethodHandle MALLOC_CRITICAL = LINKER.downcallHandle(LIBC.find("malloc").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), Linker.Option.critical(false));

    /** {@code n} bytes from malloc (C may free them), as a segment with no liveness checks. */
    public static MemorySegment malloc(long n) {
        long a;
        try { a = (long) MALLOC_CRITICAL.invokeExact(Math.max(1, n)); } catch (Throwable t) { throw new AssertionError(t); }
        if (a == 0) throw new OutOfMemoryError("malloc(" + n + ")");
        return MemorySegment.ofAddress(a).reinterpret(n);
    }

    public static void free(MemorySegment m) {
        try { FREE.invokeExact(m.address()); } catch (Throwable t) { throw new AssertionError(t); }
    }

    /** {@code void jbeam_set_port_callbacks(port_command, port_alive)} */
    public static final MethodHandle SET_PORT_CALLBACKS = fn("jbeam_set_port_callbacks", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    /** {@code void jbeam_set_monitor_callbacks(monitor, demonitor, demonitor_all)} */
    public static final MethodHandle SET_MONITOR_CALLBACKS = fn("jbeam_set_monitor_callbacks", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
    /** {@code void jbeam_resource_down(void *res, uint64 pid_id, uint64 mon_id)} */
    public static final MethodHandle RESOURCE_DOWN = fn("jbeam_resource_down", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG));
    /** {@code void jbeam_resource_keep(void *res)} / {@code jbeam_resource_release} */
    public static final MethodHandle RESOURCE_KEEP = fn("jbeam_resource_keep", FunctionDescriptor.ofVoid(ADDRESS));
    public static final MethodHandle RESOURCE_RELEASE = fn("jbeam_resource_release", FunctionDescriptor.ofVoid(ADDRESS));
    /** {@code long jbeam_dirty_jobs(void)} */
    public static final MethodHandle DIRTY_JOBS = fn("jbeam_dirty_jobs", FunctionDescriptor.of(JAVA_LONG));

    public static Linker linker() { return LINKER; }

    // ---- ErlNifEntry / ErlNifFunc layout (erl_nif.h 2.16, LP64) ----
    public static final long ENTRY_MAJOR = 0, ENTRY_MINOR = 4, ENTRY_NAME = 8, ENTRY_NUM_FUNCS = 16, ENTRY_FUNCS = 24,
            ENTRY_LOAD = 32, ENTRY_RELOAD = 40, ENTRY_UPGRADE = 48, ENTRY_UNLOAD = 56, ENTRY_VM_VARIANT = 64,
            ENTRY_SIZE = 96;
    public static final long FUNC_NAME = 0, FUNC_ARITY = 8, FUNC_FPTR = 16, FUNC_FLAGS = 24, FUNC_SIZE = 32;
    public static final int NIF_MAJOR = 2, NIF_MINOR = 16;
}
