package org.jbeam.bif;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** erts_internal natives that OTP's preloaded and stdlib modules call. */
public final class ErtsInternalBifs implements BifModule {
    private static final EAtom CHECK_PROCESS_CODE = EAtom.of("check_process_code");

    private static final EAtom ASYNC = EAtom.of("async"), TYPE = EAtom.of("type"), MAJOR = EAtom.of("major"),
            MINOR = EAtom.of("minor"), GARBAGE_COLLECT = EAtom.of("garbage_collect");

    /**
     * garbage_collect/1's answer (the JVM collects; there is nothing to ask for): true for a live
     * local process, false for a dead one, badarg for anything but a local pid, as erlang.erl's.
     */
    private static Term gcResult(org.jbeam.runtime.ErlProcess p, Term pid) {
        if (!(pid instanceof EPid x) || x.node != p.vm.nodeName) throw ErlangException.badarg();
        return p.vm.resolve(x) instanceof org.jbeam.runtime.ErlProcess q && q.isAlive() ? EAtom.TRUE : EAtom.FALSE;
    }

    /** garbage_collect(Pid, [{async, ReqId} | {type, major | minor}]): bad_option for anything else. */
    private static Term garbageCollect2(org.jbeam.runtime.ErlProcess p, Term pid, Term opts) {
        Term reqId = null, l = opts;
        for (; l instanceof ECons c; l = c.tail) {
            if (c.head instanceof ETuple t && t.arity() == 2 && t.get(0) == ASYNC) reqId = t.get(1);
            else if (!(c.head instanceof ETuple t && t.arity() == 2 && t.get(0) == TYPE && (t.get(1) == MAJOR || t.get(1) == MINOR)))
                throw ErlangException.ertsBadarg("bad_option");
        }
        if (l != ENil.NIL) throw ErlangException.ertsBadarg("bad_option");
        Term r = gcResult(p, pid);
        if (reqId == null) return r;
        p.vm.sendTo(p.pid, ETuple.of(GARBAGE_COLLECT, reqId, r));
        return ASYNC;
    }

    @Override
    public void register(BifTable t) {
        t.bif1("erts_internal", "is_system_process", (p, pid) -> EAtom.FALSE);
        t.bif1("erts_internal", "garbage_collect", (p, m) -> EAtom.TRUE);
        t.bif0("erlang", "garbage_collect", p -> EAtom.TRUE);
        t.bif1("erlang", "garbage_collect", (p, pid) -> gcResult(p, pid));
        t.bif2("erlang", "garbage_collect", ErtsInternalBifs::garbageCollect2);
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
