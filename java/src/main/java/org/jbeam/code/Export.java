package org.jbeam.code;

import org.jbeam.bif.BifTable;
import org.jbeam.term.EAtom;

/**
 * An entry of the global export table: {@code BeamModule:Function/Arity} → where calls go. Call sites
 * hold the Export, never the code, so loading a new version re-points every caller at once.
 * Exactly one of {@code module} (Erlang code at {@code pc}) or {@code bif} (native) is in effect;
 * both null means undefined (calls go through the error_handler).
 */
public final class Export {
    public final EAtom m, f;
    public final int arity;
    public volatile BeamModule module;
    public volatile int pc;
    public volatile BifTable.Entry bif;
    /** Calls through this export while its function is interpreted (bytecode-tier hotness; racy by design). */
    public int calls;
    /** What erlang:trace_pattern/3 set on the function (an org.jbeam.trace.FunctionTrace), or null (plain: read on every call). */
    public Object callTrace;

    public Export(EAtom m, EAtom f, int arity) { this.m = m; this.f = f; this.arity = arity; }

    public boolean isDefined() { return module != null || bif != null; }

    @Override public String toString() { return m.name + ":" + f.name + "/" + arity; }
}
