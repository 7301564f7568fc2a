package org.jbeam.trace;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** trace_info({M, F, A}, Item) in erts' shapes, from a function's trace state (null: untraced). */
final class CallTraceInfo {
    private CallTraceInfo() {}

    private static final EAtom TRACED = EAtom.of("traced"), MATCH_SPEC = EAtom.of("match_spec"), META = EAtom.of("meta"),
            META_MATCH_SPEC = EAtom.of("meta_match_spec"), CALL_COUNT = EAtom.of("call_count"),
            CALL_TIME = EAtom.of("call_time"), ALL = EAtom.of("all"), GLOBAL = EAtom.of("global"), LOCAL = EAtom.of("local");

    static Term info(FunctionTrace ft, Term item) {
        CallPattern pat = ft == null ? null : ft.external();
        FunctionTrace.Counter counter = ft == null ? null : ft.counter;
        if (item == TRACED) return ETuple.of(TRACED, pat == null ? EAtom.FALSE : pat.local() ? LOCAL : GLOBAL);
        if (item == MATCH_SPEC) return ETuple.of(MATCH_SPEC, pat == null ? EAtom.FALSE : pat.specTerm());
        // erts answers [] for meta of a traced function and false in its 'all' list.
        if (item == META) return ETuple.of(META, pat == null ? EAtom.FALSE : ENil.NIL);
        if (item == CALL_COUNT) return ETuple.of(CALL_COUNT, counter == null ? EAtom.FALSE : ESmall.of(counter.value()));
        if (item == META_MATCH_SPEC || item == CALL_TIME) return ETuple.of(item, EAtom.FALSE);
        if (item == ALL) {
            if (pat == null && counter == null) return ETuple.of(ALL, EAtom.FALSE);
            return ETuple.of(ALL, ECons.of(info(ft, TRACED), info(ft, MATCH_SPEC), ETuple.of(META, EAtom.FALSE),
                    ETuple.of(META_MATCH_SPEC, EAtom.FALSE), ETuple.of(CALL_TIME, EAtom.FALSE), info(ft, CALL_COUNT)));
        }
        throw ErlangException.badarg();
    }
}
