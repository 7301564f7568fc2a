package org.jbeam.bif;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** erts_internal natives that OTP's preloaded and stdlib modules call. */
public final class ErtsInternalBifs implements BifModule {
    private static final EAtom CHECK_PROCESS_CODE = EAtom.of("check_process_code");

    @Override
    public void register(BifTable t) {
        t.bif1("erts_internal", "is_system_process", (p, pid) -> EAtom.FALSE);
        t.bif1("erts_internal", "garbage_collect", (p, m) -> EAtom.TRUE);
        t.bif0("erlang", "garbage_collect", p -> EAtom.TRUE);
        t.bif1("erlang", "garbage_collect", (p, pid) -> EAtom.TRUE);
        t.bif2("erlang", "garbage_collect", (p, pid, o) -> EAtom.TRUE);
        t.bif1("erts_internal", "scheduler_wall_time", (p, on) -> {
            if (on != EAtom.TRUE && on != EAtom.FALSE) throw ErlangException.badarg();
            return p.vm.threadTimes.setWallTime(on == EAtom.TRUE) ? EAtom.TRUE : EAtom.FALSE;
        });
        // Whether the node of a pid handles unicode io requests: always, for local pids.
        t.bif1("net_kernel", "dflag_unicode_io", (p, pid) -> EAtom.TRUE);
        // +pc: the range of characters io_lib considers printable (erl's default is latin1).
        t.bif0("io", "printable_range", p -> EAtom.LATIN1);
        // spawn_system_process(M, F, A): a process outside the normal accounting; for jbeam an ordinary spawn.
        t.bif3("erts_internal", "spawn_system_process", (p, m, f, a) -> {
            Term[] args = ECons.toArray(a);
            if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa) || args == null) throw ErlangException.badarg();
            return p.vm.processes.spawn(p, ma, fa, args, null).pid;
        });
        t.bif0("erts_internal", "erase_persistent_terms", p -> EAtom.OK);
        t.bif1("erts_internal", "request_system_task", (p, x) -> EAtom.OK);
        // check_process_code as a system task (erts_code_purger's purge): answered at once with
        // whether the process runs old code of the module (OldCode); without an answer the purger
        // waits forever.
        t.bif3("erts_internal", "request_system_task", (p, pid, prio, req) -> {
            if (req instanceof ETuple r && r.arity() == 3 && r.get(0) == CHECK_PROCESS_CODE) {
                boolean uses = pid instanceof EPid target && r.get(2) instanceof EAtom m && OldCode.runsOld(p, target, m);
                p.vm.sendTo(p.pid, ETuple.of(CHECK_PROCESS_CODE, r.get(1), EAtom.of(uses)));
            }
            return EAtom.OK;
        });
        t.bif4("erts_internal", "request_system_task", (p, a) -> EAtom.OK);
        t.bif1("erts_internal", "check_dirty_process_code", (p, x) -> EAtom.FALSE);
        t.bif2("erts_internal", "check_dirty_process_code", (p, x, y) -> EAtom.FALSE);
        t.bif3("erlang", "hibernate", (p, m, f, a) -> {
            Term[] args = ECons.toArray(a);
            if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa) || args == null) throw ErlangException.badarg();
            return org.jbeam.interp.Trap.hibernate(p.vm.exports.get(ma, fa, args.length), args);
        });
        t.bif1("erlang", "iolist_to_iovec", (p, x) -> {
            // A binary, or a list of one, is its own iovec (binaries are immutable; erts also
            // references rather than copies them): prim_file:write/2 calls this on every write.
            Term only = x instanceof ECons c && c.tail == ENil.NIL ? c.head : x;
            if (only instanceof EBitString ob && ob.isBinaryAligned())
                return ob.byteSize() == 0 ? ENil.NIL : only == x ? ECons.of(ob) : x;
            byte[] b = org.jbeam.runtime.IoData.toBytes(x);
            return b.length == 0 ? ENil.NIL : ECons.of(EBitString.of(b));
        });
        t.bif1("erlang", "universaltime_to_posixtime", (p, dt) -> ESmall.of(Calendar.toPosix(dt)));
        t.bif1("erlang", "posixtime_to_universaltime", (p, s) -> Calendar.fromPosix(s));
        t.bif1("erlang", "universaltime_to_localtime", (p, dt) -> Calendar.utcToLocal(dt));
        t.bif1("erlang", "localtime_to_universaltime", (p, dt) -> Calendar.localToUtc(dt));
        t.bif2("erlang", "localtime_to_universaltime", (p, dt, dst) -> Calendar.localToUtc(dt));
    }
}
