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
 * trace_entry instruction (the module then stays interpreted). Not traced: BIFs, calls of local
 * funs; the {@code meta}, {@code call_count} and {@code call_time} flags and the {@code on_load}
 * spec are refused with badarg.
 */
final class TracePatternBif {
    private TracePatternBif() {}

    private static final EAtom UNDERSCORE = EAtom.of("_"), GLOBAL = EAtom.of("global"), LOCAL = EAtom.of("local"),
            RESTART = EAtom.of("restart"), PAUSE = EAtom.of("pause");

    static Term traceInfo(ErlProcess p, ETuple mfa, Term item) {
        if (!(mfa.get(0) instanceof EAtom m) || !(mfa.get(1) instanceof EAtom f) || !(mfa.get(2) instanceof ESmall a))
            throw ErlangException.badarg();
        Export e = p.vm.exports.find(m, f, (int) a.value);
        CallPattern pat = e == null ? null : (CallPattern) e.callTrace;
        if (pat == null && p.vm.code.current(m) instanceof BeamModule bm && bm.function(f, (int) a.value) instanceof FuncInfo fi)
            pat = (CallPattern) fi.localTrace;
        return CallTraceInfo.info(pat, item);
    }

    static Term tracePattern(ErlProcess p, Term mfa, Term spec, Term flags) {
        boolean local = false;
        Term l = flags;
        while (l instanceof ECons c) {
            if (c.head == GLOBAL) local = false;
            else if (c.head == LOCAL) local = true;
            else throw ErlangException.badarg();
            l = c.tail;
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        if (!(mfa instanceof ETuple t) || t.arity() != 3) throw ErlangException.badarg();
        Term m = t.get(0), f = t.get(1), a = t.get(2);
        if (!(m instanceof EAtom) || !(f instanceof EAtom) || !(a == UNDERSCORE || a instanceof ESmall)) throw ErlangException.badarg();
        // Wildcards only from the right: {M, '_', '_'} or {'_', '_', '_'}.
        if (f == UNDERSCORE && a != UNDERSCORE || m == UNDERSCORE && f != UNDERSCORE) throw ErlangException.badarg();
        CallPattern pat = pattern(p, spec, local);
        if (spec == PAUSE || spec == RESTART) return ESmall.of(matching(p, m, f, a, local).size()); // call_count/call_time only
        int n = 0;
        for (FuncInfo fi : matching(p, m, f, a, local)) {
            n++;
            Export e = p.vm.exports.find(fi.module.name, fi.name, fi.arity);
            boolean exported = e != null && e.module == fi.module && e.bif == null;
            if (exported) e.callTrace = pat;
            if (pat != null && pat.local()) {
                fi.localTrace = pat;
                org.jbeam.interp.CallTracing.routeLocalCalls(fi);
            } else {
                fi.localTrace = null;
            }
        }
        return ESmall.of(n);
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
                    if (e == null || e.module != bm || e.bif != null) continue;
                }
                out.add(fi);
            }
        }
        return out;
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
