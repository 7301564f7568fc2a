package org.jbeam.bif;

import org.jbeam.term.*;

/** erts_internal natives that OTP's preloaded and stdlib modules call. */
public final class ErtsInternalBifs implements BifModule {
    @Override
    public void register(BifTable t) {
        t.bif0("erts_internal", "is_system_process", p -> EAtom.FALSE);
        t.bif1("erts_internal", "garbage_collect", (p, m) -> EAtom.TRUE);
        t.bif0("erlang", "garbage_collect", p -> EAtom.TRUE);
        t.bif1("erlang", "garbage_collect", (p, pid) -> EAtom.TRUE);
        t.bif2("erlang", "garbage_collect", (p, pid, o) -> EAtom.TRUE);
        t.bif0("erts_internal", "scheduler_wall_time", p -> EAtom.FALSE);
    }
}
