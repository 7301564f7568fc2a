package org.jbeam.trace;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.code.BeamModule;
import org.jbeam.code.Export;
import org.jbeam.code.FuncInfo;
import org.jbeam.runtime.Runtime;

/**
 * trace_pattern(on_load, ...): the trace pattern and call counting that every module loaded from
 * now on gets (cprof and dbg use it). Applied by the code server when it installs a module, which
 * also drops whatever the module's previous version had on its export entries (erts traces new
 * code only through on_load).
 */
public record OnLoadTrace(CallPattern pattern, boolean callCount, boolean callTime) {
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
            if (ol.callTime && ft.global == null) ft.time = new CallTime();
            if (ft.isEmpty()) continue;
            fi.trace = ft;
            if (exported) e.callTrace = ft;
            if (ft.needsLocalCalls()) routed.add(fi);
        }
        if (!routed.isEmpty()) org.jbeam.interp.CallTracing.routeLocalCalls(m, routed);
    }

    /** trace_pattern(on_load, Spec, Flags): pattern is the new pattern or null; counting and timing: null = unchanged. */
    static void set(Runtime vm, CallPattern pattern, boolean setPattern, Boolean counting, Boolean timing) {
        OnLoadTrace cur = vm.traceOnLoad instanceof OnLoadTrace o ? o : new OnLoadTrace(null, false, false);
        OnLoadTrace next = new OnLoadTrace(setPattern ? pattern : cur.pattern, counting != null ? counting : cur.callCount,
                timing != null ? timing : cur.callTime);
        vm.traceOnLoad = next.pattern == null && !next.callCount && !next.callTime ? null : next;
    }
}
