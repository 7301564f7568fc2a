package org.jbeam.trace;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.bif.BifTable;
import org.jbeam.code.Export;
import org.jbeam.ets.MatchSpec;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang:trace_pattern/2,3 for call tracing through export entries: a pattern goes on every
 * matching export of a loaded module's Erlang function, and the interpreter's external-call path
 * reads it (interp.CallTracing). So calls through the export table are traced, with {@code global}
 * or {@code local}: {@code M:F(...)}, apply, funs of exported functions. Local calls inside a module
 * are not (with {@code local} erts traces those too), nor BIFs; the {@code meta}, {@code call_count}
 * and {@code call_time} flags and the {@code on_load} spec are refused with badarg.
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
        boolean on = spec != EAtom.FALSE;
        List<Export> hits = new ArrayList<>();
        for (Export e : p.vm.exports.all()) {
            if (e.module == null || e.bif != null) continue;
            if (m != UNDERSCORE && e.m != m || f != UNDERSCORE && e.f != f || a instanceof ESmall s && e.arity != s.value) continue;
            hits.add(e);
        }
        for (Export e : hits) {
            if (spec == PAUSE || spec == RESTART) continue; // call_count/call_time only
            e.callTrace = on ? pat : null;
        }
        return ESmall.of(hits.size());
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
