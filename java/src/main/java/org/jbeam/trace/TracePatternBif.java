package org.jbeam.trace;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.bif.BifTable;
import org.jbeam.code.BeamModule;
import org.jbeam.code.Export;
import org.jbeam.code.FuncInfo;
import org.jbeam.ets.MatchSpec;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang:trace_pattern/2,3 for call tracing (ADR 0035). A pattern goes on the export entry of every
 * matching function of a loaded module, which the interpreter's external-call path reads
 * (interp.CallTracing): {@code M:F(...)}, apply, funs of exported functions. A {@code local} pattern
 * also goes on the function itself, and the module's local calls of it are pointed at a
 * trace_entry instruction (the module then stays interpreted). {@code call_count} counts local
 * and external calls the same way, and so does {@code call_time} (CallTime: calls and own time per
 * call-traced process, as eprof reads them). BIFs and natives standing in for Erlang functions are
 * traced when called through their export (no return-trace frame: they run in place); closures
 * of a routed function pass its trace_entry. The {@code meta} flag is refused with badarg.
 */
final class TracePatternBif {
    private TracePatternBif() {}

    private static final EAtom UNDERSCORE = EAtom.of("_"), GLOBAL = EAtom.of("global"), LOCAL = EAtom.of("local"),
            CALL_COUNT = EAtom.of("call_count"), CALL_TIME = EAtom.of("call_time"), ON_LOAD = EAtom.of("on_load"),
            RESTART = EAtom.of("restart"), PAUSE = EAtom.of("pause");

    static Term traceInfo(ErlProcess p, ETuple mfa, Term item) {
        if (!(mfa.get(0) instanceof EAtom m) || !(mfa.get(1) instanceof EAtom f) || !(mfa.get(2) instanceof ESmall a))
            throw ErlangException.badarg();
        FunctionTrace ft = null;
        if (p.vm.code.current(m) instanceof BeamModule bm && bm.function(f, (int) a.value) instanceof FuncInfo fi)
            ft = (FunctionTrace) fi.trace;
        return CallTraceInfo.info(ft, item);
    }

    static Term tracePattern(ErlProcess p, Term mfa, Term spec, Term flags) {
        boolean local = false, callCount = false, callTime = false;
        Term l = flags;
        while (l instanceof ECons c) {
            if (c.head == GLOBAL) local = false;
            else if (c.head == LOCAL) local = true;
            else if (c.head == CALL_COUNT) callCount = true;
            else if (c.head == CALL_TIME) callTime = true;
            else throw ErlangException.badarg();
            l = c.tail;
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        // (erts names call_count as the cause for call_time too)
        if ((callCount || callTime) && !(spec == EAtom.TRUE || spec == EAtom.FALSE || spec == PAUSE || spec == RESTART))
            throw TraceBifs.badarg("call_count");
        if (mfa == ON_LOAD) {
            if (callCount || callTime) {
                Boolean on = spec == EAtom.TRUE ? Boolean.TRUE : spec == EAtom.FALSE ? Boolean.FALSE : null;
                if (on != null) OnLoadTrace.set(p.vm, null, false, callCount ? on : null, callTime ? on : null);
            } else if (spec != PAUSE && spec != RESTART) {
                OnLoadTrace.set(p.vm, pattern(p, spec, local), true, null, null);
            }
            return ESmall.ZERO;
        }
        if (!(mfa instanceof ETuple t) || t.arity() != 3) throw ErlangException.badarg();
        Term m = t.get(0), f = t.get(1), a = t.get(2);
        if (!(m instanceof EAtom) || !(f instanceof EAtom) || !(a == UNDERSCORE || a instanceof ESmall)) throw ErlangException.badarg();
        // Wildcards only from the right: {M, '_', '_'} or {'_', '_', '_'}.
        if (f == UNDERSCORE && a != UNDERSCORE || m == UNDERSCORE && f != UNDERSCORE) throw ErlangException.badarg();
        if (callCount || callTime) {
            List<FuncInfo> fs = matching(p, m, f, a, true);
            for (FuncInfo fi : fs) {
                if (callCount) countCalls(p, fi, spec);
                if (callTime) timeCalls(p, fi, spec);
            }
            route(fs);
            return ESmall.of(fs.size());
        }
        // pause and restart act on call counters (and call_time) only.
        if (spec == PAUSE || spec == RESTART) return ESmall.of(matching(p, m, f, a, local).size());
        CallPattern pat = pattern(p, spec, local);
        List<FuncInfo> fs = matching(p, m, f, a, local);
        for (FuncInfo fi : fs) {
            FunctionTrace ft = traceOf(fi);
            if (local) {
                ft.local = pat;
                if (pat != null) ft.global = null;
            } else {
                ft.global = pat;
                // A global pattern replaces the local breakpoints (local pattern, call counter and call time), as in erts.
                if (pat != null) { ft.local = null; ft.counter = null; ft.time = null; }
            }
            publish(p, fi, ft);
        }
        if (local) route(fs);
        return ESmall.of(fs.size());
    }

    private static void countCalls(ErlProcess p, FuncInfo fi, Term spec) {
        FunctionTrace ft = traceOf(fi);
        FunctionTrace.Counter c = ft.counter;
        if (spec == EAtom.FALSE) ft.counter = null;
        else if (spec == PAUSE) { if (c != null) c.paused = true; }
        else if (spec == EAtom.TRUE || c == null) { ft.counter = new FunctionTrace.Counter(); ft.global = null; }
        else { c.calls.set(0); c.paused = false; } // restart
        publish(p, fi, ft);
    }

    private static void timeCalls(ErlProcess p, FuncInfo fi, Term spec) {
        FunctionTrace ft = traceOf(fi);
        CallTime t = ft.time;
        if (spec == EAtom.FALSE) ft.time = null;
        else if (spec == PAUSE) { if (t != null) t.paused = true; }
        else if (spec == EAtom.TRUE || t == null) { ft.time = new CallTime(); ft.global = null; }
        else t.restart();
        publish(p, fi, ft);
    }

    private static FunctionTrace traceOf(FuncInfo fi) {
        synchronized (fi) {
            if (fi.trace instanceof FunctionTrace ft) return ft;
            FunctionTrace ft = new FunctionTrace();
            fi.trace = ft;
            return ft;
        }
    }

    /** Puts the function's trace state on its export (or takes it off when nothing is left). */
    private static void publish(ErlProcess p, FuncInfo fi, FunctionTrace ft) {
        Export e = p.vm.exports.find(fi.module.name, fi.name, fi.arity);
        if (e != null && (e.module == fi.module || e.bif != null)) e.callTrace = ft.isEmpty() ? null : ft;
    }

    /** Points the local calls of the functions that now need it at their trace_entry, one code copy per module. */
    private static void route(List<FuncInfo> fs) {
        java.util.Map<BeamModule, List<FuncInfo>> byModule = new java.util.LinkedHashMap<>();
        for (FuncInfo fi : fs)
            if (fi.trace instanceof FunctionTrace ft && ft.needsLocalCalls() && fi.traceEntry == 0)
                byModule.computeIfAbsent(fi.module, k -> new ArrayList<>()).add(fi);
        byModule.forEach(org.jbeam.interp.CallTracing::routeLocalCalls);
    }

    /** The functions of loaded modules {M, F, A} names: exported ones, or all with {@code local}. */
    private static List<FuncInfo> matching(ErlProcess p, Term m, Term f, Term a, boolean local) {
        List<FuncInfo> out = new ArrayList<>();
        List<EAtom> mods = m == UNDERSCORE ? p.vm.code.loaded() : List.of((EAtom) m);
        for (EAtom mod : mods) {
            BeamModule bm = p.vm.code.current(mod);
            if (bm == null || bm.functions == null) continue;
            for (FuncInfo fi : bm.functions) {
                if (fi.keptBody) continue;
                if (f != UNDERSCORE && fi.name != f || a instanceof ESmall s && fi.arity != s.value) continue;
                if (!local) {
                    Export e = p.vm.exports.find(mod, fi.name, fi.arity);
                    // A BIF or a native standing in for an Erlang function is traced like the
                    // function (through its export: erts traces BIFs called through call_ext).
                    // (Such an export keeps no module: CodeServer.install leaves it to the native.)
                    if (e == null || e.module != bm && !(e.bif != null && exports(bm, fi))) continue;
                }
                out.add(fi);
            }
        }
        return out;
    }

    private static boolean exports(BeamModule bm, FuncInfo fi) {
        for (BeamModule.ExportDef d : bm.exportList) if (d.name() == fi.name && d.arity() == fi.arity) return true;
        return false;
    }

    private static CallPattern pattern(ErlProcess p, Term spec, boolean local) {
        if (spec == EAtom.FALSE || spec == PAUSE || spec == RESTART) return null;
        if (spec == EAtom.TRUE || spec == ENil.NIL) return new CallPattern(null, ENil.NIL, local);
        MatchSpec ms;
        try {
            ms = MatchSpec.compileTrace(spec, p.vm.bifs);
        } catch (ErlangException ex) {
            throw TraceBifs.badarg("match_spec");
        }
        return new CallPattern(ms, spec, local);
    }

    static void register(BifTable t) {
        t.bif2("erlang", "trace_pattern", (p, mfa, spec) -> tracePattern(p, mfa, spec, ENil.NIL));
        t.bif3("erlang", "trace_pattern", TracePatternBif::tracePattern);
    }
}
