package org.jbeam.trace;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.code.BeamModule;
import org.jbeam.code.Export;
import org.jbeam.code.FuncInfo;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * trace_pattern(on_load, ...): the trace pattern and call counting that every module loaded from
 * now on gets (cprof and dbg use it). Applied by the code server when it installs a module, which
 * also drops whatever the module's previous version had on its export entries (erts traces new
 * code only through on_load).
 */
public record OnLoadTrace(CallPattern pattern, boolean callCount) {
    private static final EAtom TRACED = EAtom.of("traced"), MATCH_SPEC = EAtom.of("match_spec"), META = EAtom.of("meta"),
            META_MATCH_SPEC = EAtom.of("meta_match_spec"), CALL_COUNT = EAtom.of("call_count"), ALL = EAtom.of("all"),
            GLOBAL = EAtom.of("global"), LOCAL = EAtom.of("local");

    /** Called by the code server for a module it has just made current. */
    public static void installed(Runtime vm, BeamModule m) {
        for (BeamModule.ExportDef d : m.exportList) {
            Export e = vm.exports.find(m.name, d.name(), d.arity());
            if (e != null && e.module == m) e.callTrace = null;
        }
        if (!(vm.traceOnLoad instanceof OnLoadTrace ol) || m.functions == null) return;
        List<FuncInfo> routed = new ArrayList<>();
        for (FuncInfo fi : m.functions) {
            if (fi.keptBody) continue;
            Export e = vm.exports.find(m.name, fi.name, fi.arity);
            boolean exported = e != null && e.module == m && e.bif == null;
            FunctionTrace ft = new FunctionTrace();
            if (ol.pattern != null && (ol.pattern.local() || exported)) {
                if (ol.pattern.local()) ft.local = ol.pattern; else ft.global = ol.pattern;
            }
            if (ol.callCount && ft.global == null) ft.counter = new FunctionTrace.Counter();
            if (ft.isEmpty()) continue;
            fi.trace = ft;
            if (exported) e.callTrace = ft;
            if (ft.needsLocalCalls()) routed.add(fi);
        }
        if (!routed.isEmpty()) org.jbeam.interp.CallTracing.routeLocalCalls(m, routed);
    }

    /** trace_pattern(on_load, Spec, Flags): pattern is the new pattern or null; counting: null = unchanged. */
    static void set(Runtime vm, CallPattern pattern, boolean setPattern, Boolean counting) {
        OnLoadTrace cur = vm.traceOnLoad instanceof OnLoadTrace o ? o : new OnLoadTrace(null, false);
        OnLoadTrace next = new OnLoadTrace(setPattern ? pattern : cur.pattern, counting != null ? counting : cur.callCount);
        vm.traceOnLoad = next.pattern == null && !next.callCount ? null : next;
    }

    /** trace_info(on_load, Item). */
    static Term info(Runtime vm, Term item) {
        OnLoadTrace ol = vm.traceOnLoad instanceof OnLoadTrace o ? o : null;
        CallPattern pat = ol == null ? null : ol.pattern;
        boolean counting = ol != null && ol.callCount;
        if (item == TRACED) return ETuple.of(TRACED, pat == null ? EAtom.FALSE : pat.local() ? LOCAL : GLOBAL);
        if (item == MATCH_SPEC) return ETuple.of(MATCH_SPEC, pat == null ? EAtom.FALSE : pat.specTerm());
        if (item == META || item == META_MATCH_SPEC) return ETuple.of(item, EAtom.FALSE);
        if (item == CALL_COUNT) return ETuple.of(CALL_COUNT, EAtom.of(counting));
        if (item == ALL) {
            if (ol == null) return ETuple.of(ALL, EAtom.FALSE);
            return ETuple.of(ALL, ECons.of(info(vm, TRACED), info(vm, MATCH_SPEC), ETuple.of(META, EAtom.FALSE),
                    ETuple.of(META_MATCH_SPEC, EAtom.FALSE), info(vm, CALL_COUNT)));
        }
        throw org.jbeam.runtime.ErlangException.badarg();
    }
}
