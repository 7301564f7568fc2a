package org.jbeam.bif;

import java.nio.file.Path;
import java.util.Set;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FuncInfo;
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.nif.NifFunction;
import org.jbeam.nif.NifHost;
import org.jbeam.nif.NifLibrary;
import org.jbeam.nif.NifLoadException;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.IoData;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.runtime.SignalSink;
import org.jbeam.runtime.Signals;
import org.jbeam.term.*;

/**
 * erlang:load_nif/2. erts' statically linked NIF modules (zlib, prim_file, …) are implemented in
 * Java and always "load". Any other path is a real NIF library: it is loaded through the erl_nif
 * layer (org.jbeam.nif), and each function it declares replaces the body of the same function in
 * the calling module (the module whose on_load runs), as erts does.
 */
final class LoadNif {
    private LoadNif() {}

    private static final Set<String> STATIC_NIFS = Set.of("zlib", "erl_tracer", "prim_buffer", "prim_file", "prim_socket", "prim_net");

    static Term loadNif(ErlProcess p, Term path, Term info) {
        if (ECons.length(path) < 0 && !(path instanceof EAtom)) throw ErlangException.badarg();
        String lib = path instanceof EAtom a ? a.name : IoLists.charlistToString(path);
        String base = lib.substring(lib.lastIndexOf('/') + 1);
        if (STATIC_NIFS.contains(base)) {
            if (base.equals("prim_socket")) org.jbeam.socket.SocketNifs.loaded(info);
            return EAtom.OK;
        }
        BeamModule mod = p.interpreter != null ? p.interpreter.currentModule() : null;
        if (mod == null) throw ErlangException.badarg();
        NifLibrary.setHost(host(p.vm));
        if (INSTANCES.containsKey(mod))
            return ETuple.of(EAtom.ERROR, ETuple.of(EAtom.of("reload"),
                    IoLists.stringToCharlist("NIF library already loaded (reload disallowed since OTP 20).")));
        // The code this module version replaces (the current one while its on_load runs): if it
        // has a library loaded, the new one is an upgrade of it (erts: the upgrade callback).
        BeamModule replaced = p.vm.code.current(mod.name);
        NifLibrary previous = replaced != null && replaced != mod ? INSTANCES.get(replaced) : null;
        NifLibrary nif;
        try {
            nif = NifLibrary.load(Path.of(lib), mod.name.name, info, previous);
        } catch (NifLoadException e) {
            return e.errorTuple();
        }
        for (NifFunction f : nif.functions()) {
            FuncInfo fi = mod.function(EAtom.of(f.name), f.arity);
            if (fi == null) {
                return ETuple.of(EAtom.ERROR, ETuple.of(EAtom.of("bad_lib"),
                        IoLists.stringToCharlist("Function not found " + mod.name.name + ":" + f.name + "/" + f.arity)));
            }
        }
        for (NifFunction f : nif.functions()) {
            FuncInfo fi = mod.function(EAtom.of(f.name), f.arity);
            Instr n = new Instr(Ops.CALL_NATIVE);
            n.o = new BifTable.Entry(mod.name, EAtom.of(f.name), f.arity, new NifBif(f), false);
            n.a = f.arity;
            n.c = Ops.NATIVE_NIF;
            n.line = mod.code[fi.entry].line;
            // A compiled function entered here no longer is: fun tail calls must not enter it (ADR 0059).
            if (mod.code[fi.entry].o instanceof org.jbeam.interp.CompiledFunction cf) cf.retire();
            mod.code[fi.entry] = n;
        }
        INSTANCES.put(mod, nif);
        TAINTS.add(mod.name);
        p.vm.code.onPurge = LoadNif::purged;
        return EAtom.OK;
    }

    /**
     * system_info(taints): the modules whose dynamically loaded NIF library has tainted the
     * emulator, in load order, never removed (as erts_add_taint).
     */
    private static final java.util.Set<EAtom> TAINTS = java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());

    static Term taints() {
        synchronized (TAINTS) { return ECons.of(new java.util.ArrayList<Term>(TAINTS)); }
    }

    /** The library instance each module version loaded (by identity: BeamModule keeps Object's equals). */
    private static final java.util.Map<BeamModule, NifLibrary> INSTANCES =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /** A module version's code was purged: as erts, its library instance's unload callback runs. */
    private static void purged(BeamModule m) {
        NifLibrary nif = INSTANCES.remove(m);
        if (nif != null) nif.unload();
    }

    /**
     * A NIF as a BIF of every shape: one class for all NIFs, so the interpreter's NIF call site
     * (Interpreter.callNif) stays monomorphic; arities 0-3 pass no argument array. Callers pick
     * the shape by the entry's arity (NativeCalls.callNif and invoke), never by type (Bif.invoke, which is
     * only used on BifTable's own entries).
     */
    private record NifBif(NifFunction f) implements Bif.F0, Bif.F1, Bif.F2, Bif.F3, Bif.N {
        @Override public Term apply(ErlProcess p) { return f.call0(p); }
        @Override public Term apply(ErlProcess p, Term a) { return f.call1(p, a); }
        @Override public Term apply(ErlProcess p, Term a, Term b) { return f.call2(p, a, b); }
        @Override public Term apply(ErlProcess p, Term a, Term b, Term c) { return f.call3(p, a, b, c); }
        @Override public Term apply(ErlProcess p, Term[] args) { return f.call(p, args); }
    }

    private static NifHost host(Runtime vm) {
        return new NifHost() {
            @Override public boolean send(EPid to, Term msg) {
                if (!(to.process instanceof ErlProcess)) return false;
                vm.sendTo(to, msg);
                return true;
            }

            @Override public ERef makeRef() { return vm.makeRef(); }

            @Override public Term whereis(EAtom name) { return vm.registry.whereis(name); }

            // As erlang:port_command/2 from the NIF's caller (the owner when called from no process).
            @Override public boolean portCommand(EPort port, EPid caller, Term msg) {
                Ports.Port pt = vm.ports.get(port);
                if (pt == null || pt.isClosed()) return false;
                byte[] bytes;
                try { bytes = IoData.toBytes(msg); } catch (ErlangException e) { return false; }
                ErlProcess p = caller != null && caller.process instanceof ErlProcess ep ? ep
                        : pt.owner.process instanceof ErlProcess op ? op : null;
                try {
                    if (pt.driver != null) pt.driver.output(p, bytes);
                    else vm.ports.command(pt, bytes);
                } catch (ErlangException e) { return false; }
                return true;
            }

            @Override public boolean processAlive(EPid pid) { return pid.process instanceof ErlProcess p && p.isAlive(); }

            @Override public boolean portAlive(EPort port) {
                Ports.Port pt = vm.ports.get(port);
                return pt != null && !pt.isClosed();
            }

            // A resource's monitor sits in the target's monitoredBy like a process's, with a
            // watcher pid that is no process: its sink runs the down callback when the target exits.
            @Override public boolean monitor(ERef ref, EPid target, Runnable onDown) {
                if (!(target.process instanceof ErlProcess other)) return false;
                EPid watcher = new EPid(EAtom.NONODE, 0, 0, 0);
                watcher.process = (SignalSink) s -> { if (s instanceof Signals.Down) onDown.run(); };
                return other.watchedBy(new ErlProcess.Monitor(ref, watcher, target, target, false));
            }

            @Override public boolean demonitor(ERef ref, EPid target) {
                return target.process instanceof ErlProcess other && other.unwatch(ref);
            }
        };
    }
}
