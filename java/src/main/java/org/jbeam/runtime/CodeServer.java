package org.jbeam.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jbeam.code.*;
import org.jbeam.loader.BeamFile;
import org.jbeam.loader.LoadStats;
import org.jbeam.loader.LoadError;
import org.jbeam.loader.Transformer;
import org.jbeam.term.*;

/**
 * Loaded modules (current and old version of each), the code path, and loading: prepare
 * (parse + transform, no side effects) then finish (publish into the export table). Until OTP's
 * own code server runs, the runtime autoloads a module from the code path on its first call —
 * the same observable behaviour as OTP's error_handler in interactive mode.
 */
public final class CodeServer {
    private final Runtime vm;
    private final ConcurrentHashMap<EAtom, BeamModule> current = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<EAtom, BeamModule> old = new ConcurrentHashMap<>();
    private final List<Path> path = new CopyOnWriteArrayList<>();
    /** Modules that failed to autoload (not found): don't search the path again on every call. */
    private final ConcurrentHashMap<EAtom, Boolean> missing = new ConcurrentHashMap<>();

    CodeServer(Runtime vm) { this.vm = vm; }

    private final List<EAtom> preloaded = new CopyOnWriteArrayList<>();

    /**
     * Marks a module as preloaded. Like erts' built-in copies of these modules, it carries no line
     * information, so stack traces show {@code []} locations for it exactly as on erl.
     */
    public void markPreloaded(EAtom m) {
        if (!preloaded.contains(m)) preloaded.add(m);
        // The code server lists it as preloaded (its init reads erlang:pre_loaded()), not by the
        // file it came from: code:which(erlang) is preloaded, as on erl.
        synchronized (this) { unannounced.removeIf(t -> ((ETuple) t).get(0) == m); }
        BeamModule mod = current.get(m);
        if (mod != null) mod.lines = org.jbeam.loader.LineTable.EMPTY;
    }
    public List<EAtom> preloaded() { return preloaded; }

    public List<Path> path() { return path; }
    public void addPathFirst(Path p) { path.add(0, p); missing.clear(); }
    public void addPathLast(Path p) { path.add(p); missing.clear(); }

    public BeamModule current(EAtom m) { return current.get(m); }
    public BeamModule old(EAtom m) { return old.get(m); }
    /** Modules ever loaded: erts keeps their module table entry after delete and purge. */
    private final java.util.Set<EAtom> known = java.util.concurrent.ConcurrentHashMap.newKeySet();
    public boolean known(EAtom m) { return known.contains(m); }
    public boolean isLoaded(EAtom m) { return current.containsKey(m); }
    public List<EAtom> loaded() { return new ArrayList<>(current.keySet()); }

    /** Parses and transforms without publishing (erlang:prepare_loading/2). */
    public BeamModule prepare(EAtom expected, byte[] beam) throws LoadError {
        long t = LoadStats.start();
        BeamFile f = BeamFile.parse(beam);
        LoadStats.add(LoadStats.Phase.PARSE, t);
        if (expected != null && f.module() != expected)
            throw new LoadError("badfile", "module name in object code is " + f.module().name + ", expected " + expected.name);
        t = LoadStats.start();
        BeamModule m = Transformer.transform(f, vm.exports, vm.bifs);
        LoadStats.add(LoadStats.Phase.TRANSFORM, t);
        byte[][] hashed = new byte[MD5_CHUNKS.length][];
        for (int i = 0; i < hashed.length; i++) hashed[i] = f.chunks.get(MD5_CHUNKS[i]);
        m.md5(() -> md5(hashed));
        t = LoadStats.start();
        m.attributes = decodeOr(f.attributes);
        m.compileInfo = decodeOr(f.compileInfo);
        LoadStats.add(LoadStats.Phase.ATTRIBUTES, t);
        return m;
    }

    private static Term decodeOr(byte[] etf) {
        if (etf == null) return ENil.NIL;
        try {
            return org.jbeam.etf.TermDecoder.decode(etf, 0, etf.length);
        } catch (ErlangException e) {
            return ENil.NIL;
        }
    }

    /** Modules whose on_load function is running: loaded, but their exports not yet published. */
    private final ConcurrentHashMap<EAtom, BeamModule> pendingOnLoad = new ConcurrentHashMap<>();

    public void addPendingOnLoad(BeamModule m) { pendingOnLoad.put(m.name, m); }
    public BeamModule pendingOnLoad(EAtom name) { return pendingOnLoad.get(name); }

    /** erlang:finish_after_on_load(Mod, Keep): publish the module, or drop it. */
    public boolean finishOnLoad(EAtom name, boolean keep) {
        BeamModule m = pendingOnLoad.remove(name);
        if (m == null) return false;
        if (keep) install(m);
        return true;
    }

    /** Publishes a prepared module: it becomes current, the previous current becomes old. */
    public synchronized void install(BeamModule m) {
        // Exports first, then `current`: ensureLoaded's unlocked fast path takes a module found in
        // `current` as callable, and a process autoloading the same module at that moment must not
        // see it current with its exports still unbound (undef under load: sched_wait_queued's
        // sleepers all autoloading timer).
        BeamModule prev = current.get(m.name);
        for (BeamModule.ExportDef d : m.exportList) {
            Export e = vm.exports.get(m.name, d.name(), d.arity());
            if (e.bif != null) continue; // natively implemented: the native stays in effect
            e.pc = d.pc();
            e.module = m;
        }
        if (prev != null) {
            old.put(m.name, prev);
            for (BeamModule.ExportDef d : prev.exportList) {
                Export e = vm.exports.find(m.name, d.name(), d.arity());
                if (e != null && e.module == prev) e.module = null;
            }
        }
        current.put(m.name, m);
        known.add(m.name);
        missing.remove(m.name);
        org.jbeam.trace.OnLoadTrace.installed(vm, m);
        if (org.jbeam.interp.JitSupport.EAGER) org.jbeam.interp.JitSupport.compileAll(m);
    }

    private static final EAtom ERROR_HANDLER = EAtom.of("error_handler"), UNDEFINED_FUNCTION = EAtom.of("undefined_function"),
            CODE_SERVER = EAtom.of("code_server");

    /**
     * error_handler:undefined_function/3 once OTP's code server runs (and the caller is not the
     * code server itself, nor the error handler), else null: the runtime raises undef itself.
     */
    public Export errorHandler(ErlProcess caller, Export missing) {
        if (caller.errorHandler != ErlProcess.DEFAULT_ERROR_HANDLER) {
            // A process's own handler (process_flag(error_handler, M)) must be loaded already, as in erts.
            Export h = vm.exports.get(caller.errorHandler, UNDEFINED_FUNCTION, 3);
            return h.module != null ? h : null;
        }
        if (missing.m == ERROR_HANDLER || !current.containsKey(ERROR_HANDLER)) return null;
        Term cs = vm.registry.whereis(CODE_SERVER);
        if (!(cs instanceof org.jbeam.term.EPid csPid) || csPid.equals(caller.pid)) return null;
        Export h = vm.exports.get(ERROR_HANDLER, UNDEFINED_FUNCTION, 3);
        return h.module != null ? h : null;
    }

    /** Loads {@code name} from the code path if it is not loaded. */
    public void autoload(Export e) {
        ensureLoaded(e.m);
    }

    /** True when the module is (now) loaded. */
    public boolean ensureLoaded(EAtom name) {
        if (current.containsKey(name)) return true;
        if (missing.containsKey(name)) return false;
        synchronized (this) {
            if (current.containsKey(name)) return true;
            Path file = find(name);
            if (file == null) { missing.put(name, true); return false; }
            try {
                BeamModule m = prepare(name, Files.readAllBytes(file));
                // A module with -on_load must run it before it is callable: leave that to OTP's
                // code server (through error_handler), which runs the on_load protocol.
                if (m.onLoadPc >= 0) return false;
                install(m);
                tellCodeServer(name, file);
                return true;
            } catch (LoadError | IOException ex) {
                vm.warn("jbeam: loading " + file + " failed: " + ex.getMessage());
                missing.put(name, true);
                return false;
            }
        }
    }

    /**
     * A module loaded here rather than by OTP's code server (an autoload on first call) is entered
     * in the code server's table of loaded modules, as its own loading would have done, so that
     * code:is_loaded/1, code:which/1 and code:all_loaded/0 know it. Modules autoloaded during the
     * boot, before the code server has its table, are entered when the boot script has finished
     * ({@link #bootFinished}) or at the next autoload after that.
     */
    private void tellCodeServer(EAtom name, Path file) {
        unannounced.add(ETuple.of(name, org.jbeam.bif.IoLists.stringToCharlist(file.toAbsolutePath().normalize().toString())));
        announce();
    }

    /** init's boot script has run: the code server is up. */
    void bootFinished() { synchronized (this) { announce(); } }

    private void announce() {
        if (unannounced.isEmpty() || !(vm.registry.whereis(CODE_SERVER) instanceof EPid cs)) return;
        for (org.jbeam.ets.EtsTable t : org.jbeam.ets.EtsTables.of(vm).all()) {
            if (!t.named && t.name == CODE_TABLE && cs.equals(t.owner) && !t.isDeleted()) {
                t.insert(unannounced.toArray(new Term[0]));
                unannounced.clear();
                return;
            }
        }
    }

    /** {Module, File} of autoloaded modules not yet in the code server's table (guarded by this). */
    private final List<Term> unannounced = new ArrayList<>();

    private static final EAtom CODE_TABLE = EAtom.of("code");

    public Path find(EAtom name) {
        String fn = name.name + ".beam";
        for (Path dir : path) {
            Path f = dir.resolve(fn);
            if (Files.isRegularFile(f)) return f;
        }
        return null;
    }

    /** The fun entry for a fun decoded from the external format (module loaded on demand). */
    public FunEntry resolveFun(ELocalFun f) {
        if (!ensureLoaded(f.module)) return null;
        BeamModule m = current.get(f.module);
        for (FunEntry fe : m.funs) if (fe.index == f.index && fe.oldUniq == f.oldUniq) return fe;
        return null;
    }

    /** Drops the old version (erlang:purge_module/1 semantics, without killing processes yet). */
    public boolean purge(EAtom name) {
        BeamModule m = old.remove(name);
        if (m != null && onPurge != null) onPurge.accept(m);
        return m != null;
    }

    /** Told of each purged module version (set by erlang:load_nif: its NIF library's unload callback). */
    public volatile java.util.function.Consumer<BeamModule> onPurge;

    /** delete_module/1: current becomes old; exports become undefined. */
    public synchronized boolean delete(EAtom name) {
        BeamModule m = current.remove(name);
        if (m == null) return false;
        old.put(name, m);
        for (BeamModule.ExportDef d : m.exportList) {
            Export e = vm.exports.find(name, d.name(), d.arity());
            if (e != null && e.module == m) e.module = null;
        }
        return true;
    }

    private static final String[] MD5_CHUNKS = {"Atom", "AtU8", "Code", "StrT", "ImpT", "ExpT", "FunT", "LitT", "Meta"};

    /** MD5 over the chunks named in {@link #MD5_CHUNKS} (same order; null = absent). */
    private static byte[] md5(byte[][] chunks) {
        long t = LoadStats.start();
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            for (int i = 0; i < chunks.length; i++) {
                byte[] b = chunks[i];
                if (b == null) continue;
                if (MD5_CHUNKS[i].equals("FunT")) {
                    // As beam_lib:md5/1 (filter_funtab): each 24-byte entry's OldUniq word counts as zero, so the
                    // md5 (a fun's new_uniq) matches erts' and funs sent to other nodes are recognised there.
                    b = b.clone();
                    for (int at = 4 + 20; at + 4 <= b.length; at += 24) { b[at] = 0; b[at + 1] = 0; b[at + 2] = 0; b[at + 3] = 0; }
                }
                md.update(b);
            }
            LoadStats.add(LoadStats.Phase.MD5, t);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
