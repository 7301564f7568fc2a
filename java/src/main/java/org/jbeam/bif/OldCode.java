package org.jbeam.bif;

import org.jbeam.code.BeamModule;
import org.jbeam.code.CatchTag;
import org.jbeam.code.ReturnAddr;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Which processes still run the old version of a module: erlang:check_process_code/2,3 and the
 * check_process_code system task that OTP's erts_code_purger sends every process before a purge
 * (code:purge/1 kills those that answer true, code:soft_purge/1 gives up). A process runs old
 * code when it is suspended in it or has a return address or catch into it on its stack.
 * A process running on another scheduler is read as of its last slice (erts answers the task
 * from the process itself; the purger's protocol tolerates either order).
 */
final class OldCode {
    private OldCode() {}

    static boolean uses(ErlProcess q, BeamModule old) {
        if (old == null || q == null || !q.isAlive()) return false;
        if (q.module == old) return true;
        Term[] stk = q.stk;
        int sp = Math.min(q.sp, stk.length);
        for (int i = 0; i < sp; i++) {
            Term t = stk[i];
            if (t instanceof ReturnAddr ra && ra.module == old) return true;
            if (t instanceof CatchTag ct && ct.module == old) return true;
        }
        return false;
    }

    /** Whether the process {@code target} (false when it is gone) runs old code of {@code m}. */
    static boolean runsOld(ErlProcess caller, EPid target, EAtom m) {
        return target.process instanceof ErlProcess q && uses(q, caller.vm.code.old(m));
    }

    /** check_process_code(Pid, Module): badarg unless a local pid and an atom. */
    static Term check(ErlProcess p, Term pid, Term mod) {
        if (!(pid instanceof EPid target) || !(mod instanceof EAtom m) || target.node != p.vm.nodeName) throw ErlangException.badarg();
        return EAtom.of(runsOld(p, target, m));
    }

    /**
     * erts_internal:purge_module(Module, Op) as erts_code_purger drives it: prepare (and
     * prepare_on_load) say whether there is old code to purge, complete purges it, abort keeps it.
     */
    static Term purgeModule(ErlProcess p, Term mod, Term op) {
        if (!(mod instanceof EAtom m) || !(op instanceof EAtom o)) throw ErlangException.badarg();
        return switch (o.name) {
            case "prepare", "prepare_on_load" -> EAtom.of(p.vm.code.old(m) != null);
            case "abort" -> EAtom.FALSE;
            case "complete" -> { p.vm.code.purge(m); yield EAtom.TRUE; }
            default -> throw ErlangException.badarg();
        };
    }
}
