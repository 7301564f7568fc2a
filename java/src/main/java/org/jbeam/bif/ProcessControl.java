package org.jbeam.bif;

import java.util.HashMap;
import java.util.Map;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.ProcessTable.SpawnOptions;
import org.jbeam.term.*;

/**
 * erlang:suspend_process/1,2, resume_process/1 and erts_internal:spawn_request/4 (spawn_request on this node).
 *
 * <p>Suspension is a count per suspending process, kept on the target; a suspended process still
 * handles signals (it can be killed) but does not run Erlang code: {@code Interpreter.run} parks it
 * again after draining its inbox. resume_process wakes it once no suspender is left. Unlike erts,
 * a suspender that dies does not release its suspensions.
 */
final class ProcessControl {
    private ProcessControl() {}

    private static final String E = "erlang";
    private static final EAtom ASYNC = EAtom.of("asynchronous"), UNLESS = EAtom.of("unless_suspending"),
            SPAWN_REPLY = EAtom.of("spawn_reply"), REPLY = EAtom.of("reply"), REPLY_TAG = EAtom.of("reply_tag");

    static void register(BifTable t) {
        t.bif1(E, "suspend_process", (p, pid) -> suspend(p, pid, ENil.NIL));
        t.bif2(E, "suspend_process", ProcessControl::suspend);
        t.bif1(E, "resume_process", ProcessControl::resume);
        // erlang.erl's spawn_request/1..5 end here for this node (other nodes go through
        // erts_internal:dist_spawn_request); the result is the request id, or badopt/badarg.
        t.bif4("erts_internal", "spawn_request", (p, a) -> spawnRequest(p, a[0], a[1], a[2], a[3]));
        // Local requests are answered at once, so there is never one left to abandon (requests to
        // other nodes cannot be abandoned yet either).
        t.bif1(E, "spawn_request_abandon", (p, r) -> {
            if (!(r instanceof ERef)) throw ErlangException.badarg();
            return EAtom.FALSE;
        });
    }

    private static ErlProcess target(ErlProcess p, Term pid) {
        if (!(pid instanceof EPid x) || x.equals(p.pid) || !(p.vm.resolve(x) instanceof ErlProcess q) || !q.isAlive())
            throw ErlangException.badarg();
        return q;
    }

    private static Term suspend(ErlProcess p, Term pid, Term opts) {
        Term[] os = ECons.toArray(opts);
        if (os == null) throw ErlangException.badarg();
        boolean unless = false;
        Term asyncTag = null;
        for (Term o : os) {
            if (o == UNLESS) unless = true;
            else if (o == ASYNC) { /* no reply message */ }
            else if (o instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == ASYNC) asyncTag = tu.get(1);
            else throw ErlangException.badarg();
        }
        ErlProcess q = target(p, pid);
        boolean done;
        synchronized (q) {
            Map<EPid, Integer> by = q.suspendedBy == null ? (q.suspendedBy = new HashMap<>()) : q.suspendedBy;
            Integer n = by.get(p.pid);
            done = !(unless && n != null);
            if (done) by.put(p.pid, n == null ? 1 : n + 1);
        }
        if (done) synchronized (p) { (p.suspending == null ? p.suspending = new java.util.HashSet<>() : p.suspending).add(q.pid); }
        if (asyncTag != null) p.deliver(ETuple.of(asyncTag, done ? EAtom.of("suspended") : EAtom.of("already_suspended")));
        return EAtom.of(done);
    }

    private static Term resume(ErlProcess p, Term pid) {
        ErlProcess q = target(p, pid);
        boolean wake;
        Integer n;
        synchronized (q) {
            n = q.suspendedBy == null ? null : q.suspendedBy.get(p.pid);
            if (n == null) throw ErlangException.badarg();
            if (n > 1) q.suspendedBy.put(p.pid, n - 1);
            else q.suspendedBy.remove(p.pid);
            wake = q.suspendedBy.isEmpty();
            if (wake) q.suspendedBy = null;
        }
        if (n == 1) synchronized (p) { if (p.suspending != null) p.suspending.remove(q.pid); }
        if (wake) q.wake();
        return EAtom.TRUE;
    }

    /**
     * spawn_request on this node: the reply ({spawn_reply, ReqId, ok, Pid} or the {reply_tag, T}
     * tag) is in the caller's queue before this returns; with monitor the request id is the monitor
     * reference, as in erts.
     */
    private static Term spawnRequest(ErlProcess p, Term m, Term f, Term a, Term opts) {
        Term[] os = ECons.toArray(opts);
        if (!(m instanceof EAtom) || !(f instanceof EAtom) || ECons.length(a) < 0 || os == null) return EAtom.BADARG;
        Term tag = SPAWN_REPLY;
        String reply = "yes";
        java.util.List<Term> spawnOpts = new java.util.ArrayList<>();
        for (Term o : os) {
            if (o instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == REPLY_TAG) tag = tu.get(1);
            else if (o instanceof ETuple tu && tu.arity() == 2 && tu.get(0) == REPLY && tu.get(1) instanceof EAtom r
                    && java.util.Set.of("yes", "no", "error_only", "success_only").contains(r.name)) reply = r.name;
            else spawnOpts.add(o);
        }
        ERef[] req = new ERef[1];
        Term res;
        try {
            res = ErlangProcessBifs.spawnOptRequest(p, ECons.of(spawnOpts), m, f, a, req);
        } catch (ErlangException badOption) {
            // erts answers a spawn option it does not know with an error reply, not an exception.
            ERef r = p.vm.makeRef();
            if (reply.equals("yes") || reply.equals("error_only")) p.deliver(ETuple.of(tag, r, EAtom.ERROR, EAtom.of("badopt")));
            return r;
        }
        EPid child = res instanceof ETuple tu ? (EPid) tu.get(0) : (EPid) res;
        if (reply.equals("yes") || reply.equals("success_only")) p.deliver(ETuple.of(tag, req[0], EAtom.OK, child));
        return req[0];
    }
}
