package org.jbeam.trace;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** trace_info({M, F, A} | on_load, Item) in erts' shapes. */
final class CallTraceInfo {
    private CallTraceInfo() {}

    private static final EAtom TRACED = EAtom.of("traced"), MATCH_SPEC = EAtom.of("match_spec"), META = EAtom.of("meta"),
            META_MATCH_SPEC = EAtom.of("meta_match_spec"), CALL_COUNT = EAtom.of("call_count"),
            CALL_TIME = EAtom.of("call_time"), ALL = EAtom.of("all"), GLOBAL = EAtom.of("global"), LOCAL = EAtom.of("local");

    /** A function's trace state (null: untraced). */
    static Term info(FunctionTrace ft, Term item) {
        CallPattern pat = ft == null ? null : ft.external();
        FunctionTrace.Counter counter = ft == null ? null : ft.counter;
        if (item == TRACED) return traced(pat);
        if (item == MATCH_SPEC) return matchSpec(pat);
        // erts answers [] for meta of a traced function and false in its 'all' list.
        if (item == META) return ETuple.of(META, pat == null ? EAtom.FALSE : ENil.NIL);
        if (item == CALL_COUNT) return ETuple.of(CALL_COUNT, counter == null ? EAtom.FALSE : ESmall.of(counter.value()));
        CallTime time = ft == null ? null : ft.time;
        if (item == CALL_TIME) return ETuple.of(CALL_TIME, time == null ? EAtom.FALSE : time.info());
        if (item == META_MATCH_SPEC) return ETuple.of(item, EAtom.FALSE);
        if (item == ALL) {
            if (pat == null && counter == null && time == null) return ETuple.of(ALL, EAtom.FALSE);
            return ETuple.of(ALL, ECons.of(info(ft, TRACED), info(ft, MATCH_SPEC), ETuple.of(META, EAtom.FALSE),
                    ETuple.of(META_MATCH_SPEC, EAtom.FALSE), info(ft, CALL_TIME), info(ft, CALL_COUNT)));
        }
        throw ErlangException.badarg();
    }

    /** What modules loaded from now on get (null: nothing); its list has no call_time and a boolean call_count. */
    static Term onLoad(OnLoadTrace ol, Term item) {
        CallPattern pat = ol == null ? null : ol.pattern();
        if (item == TRACED) return traced(pat);
        if (item == MATCH_SPEC) return matchSpec(pat);
        if (item == META || item == META_MATCH_SPEC) return ETuple.of(item, EAtom.FALSE);
        if (item == CALL_COUNT) return ETuple.of(CALL_COUNT, EAtom.of(ol != null && ol.callCount()));
        if (item == ALL) {
            if (ol == null) return ETuple.of(ALL, EAtom.FALSE);
            return ETuple.of(ALL, ECons.of(traced(pat), matchSpec(pat), ETuple.of(META, EAtom.FALSE),
                    ETuple.of(META_MATCH_SPEC, EAtom.FALSE), onLoad(ol, CALL_COUNT)));
        }
        throw ErlangException.badarg();
    }

    private static Term traced(CallPattern pat) { return ETuple.of(TRACED, pat == null ? EAtom.FALSE : pat.local() ? LOCAL : GLOBAL); }

    private static Term matchSpec(CallPattern pat) { return ETuple.of(MATCH_SPEC, pat == null ? EAtom.FALSE : pat.specTerm()); }
}
