package org.jbeam.trace;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** trace_info({M, F, A}, Item): call tracing is not implemented, so every function reports untraced. */
final class CallTraceInfo {
    private CallTraceInfo() {}

    private static final String[] ITEMS = {"traced", "match_spec", "meta", "meta_match_spec", "call_count", "call_time", "all"};

    static Term info(ErlProcess p, ETuple mfa, Term item) {
        if (!(item instanceof EAtom a)) throw ErlangException.badarg();
        for (String s : ITEMS) if (s.equals(a.name)) return ETuple.of(a, EAtom.FALSE);
        throw ErlangException.badarg();
    }
}
