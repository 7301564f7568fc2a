package org.jbeam.dist;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ProcessTable;
import org.jbeam.runtime.Signals;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * spawn_request across nodes (erpc, rpc, spawn/4 on another node): SPAWN_REQUEST out and its
 * SPAWN_REPLY back for this node's callers; SPAWN_REQUEST in from other nodes' callers.
 */
final class SpawnRequests {
    private SpawnRequests() {}

    static final EAtom REPLY = EAtom.of("reply"), REPLY_TAG = EAtom.of("reply_tag"), SPAWN_REPLY = EAtom.of("spawn_reply"),
            YES = EAtom.of("yes"), NO = EAtom.of("no"), ERROR_ONLY = EAtom.of("error_only"), SUCCESS_ONLY = EAtom.of("success_only"),
            LINK = EAtom.of("link"), MONITOR = EAtom.of("monitor"), PRIORITY = EAtom.of("priority"), BADOPT = EAtom.of("badopt");

    /** An outstanding request of {@code requester} to {@code node}. */
    record Request(ERef id, EPid requester, EAtom node, Term tag, EAtom reply, boolean link, boolean monitor) {}

    /**
     * erts_internal:dist_spawn_request(Node, {M, F, A}, Opts, Kind): sends the request and returns
     * its id ({@code {Id, MonitorRequested}} for kind spawn_opt), or the atom badarg.
     */
    static Term request(Distribution d, ErlProcess p, EAtom node, EAtom m, EAtom f, Term args, Term opts, boolean spawnOpt) {
        Term[] os = ECons.toArray(opts);
        if (os == null || ECons.length(args) < 0) return EAtom.BADARG;
        Term tag = SPAWN_REPLY;
        EAtom reply = YES;
        boolean link = false, monitor = false;
        java.util.List<Term> sent = new java.util.ArrayList<>();
        for (Term o : os) {
            if (o == LINK) { link = true; sent.add(o); }
            else if (o == MONITOR) { monitor = true; sent.add(o); }
            else if (o instanceof ETuple t && t.arity() == 2 && t.get(0) == MONITOR && ECons.length(t.get(1)) >= 0) { monitor = true; sent.add(MONITOR); }
            else if (!spawnOpt && o instanceof ETuple t && t.arity() == 2 && t.get(0) == REPLY_TAG) tag = t.get(1);
            else if (!spawnOpt && o instanceof ETuple t && t.arity() == 2 && t.get(0) == REPLY
                    && (t.get(1) == YES || t.get(1) == NO || t.get(1) == ERROR_ONLY || t.get(1) == SUCCESS_ONLY)) reply = (EAtom) t.get(1);
            else if (o instanceof ETuple t && t.arity() == 2 && t.get(0) instanceof EAtom) sent.add(o);
            else return EAtom.BADARG;
        }
        ERef id = d.vm.makeRef();
        Request r = new Request(id, p.pid, node, tag, reply, link, monitor);
        DistConnection c = d.connection(node);
        if (c == null) {
            if (reply == YES || reply == ERROR_ONLY) d.vm.sendTo(p.pid, ETuple.of(tag, id, EAtom.ERROR, Distribution.NOCONNECTION));
        } else {
            d.spawnRequests.put(id, r);
            Term mfa = ETuple.of(m, f, ESmall.of(ECons.length(args)));
            c.send(ETuple.of(ESmall.of(DistOps.SPAWN_REQUEST), id, p.pid, p.groupLeader, mfa, ECons.of(sent)), args);
        }
        return spawnOpt ? ETuple.of(id, EAtom.of(monitor)) : id;
    }

    /** The request cannot be answered by the other node (no connection, or it went down). */
    static void failed(Distribution d, Request r, Term reason) {
        if (!d.spawnRequests.remove(r.id(), r)) return;
        if (r.reply() == YES || r.reply() == ERROR_ONLY) d.vm.sendTo(r.requester(), ETuple.of(r.tag(), r.id(), EAtom.ERROR, reason));
    }

    /** SPAWN_REPLY {31, ReqId, To, Flags, Result}. */
    static void reply(Distribution d, ETuple m) {
        if (!(m.get(1) instanceof ERef id)) return;
        Request r = d.spawnRequests.remove(id);
        if (r == null) return;
        Term result = m.get(4);
        int flags = m.get(3) instanceof ESmall s ? (int) s.value : 0;
        if (!(result instanceof EPid child)) {
            if (r.reply() == YES || r.reply() == ERROR_ONLY) d.vm.sendTo(r.requester(), ETuple.of(r.tag(), id, EAtom.ERROR, result));
            return;
        }
        boolean ok = r.reply() == YES || r.reply() == SUCCESS_ONLY;
        ErlProcess p = d.vm.resolve(r.requester());
        if (p == null) {
            // The requester is gone: undo the link so the child is not left linked to nothing.
            if ((flags & DistOps.SPAWN_LINKED) != 0) d.vm.exitSignal(r.requester(), child, EAtom.NOPROC, true);
            return;
        }
        // In the requester's own context, ahead of the reply message and of any later DOWN.
        p.deliver(new Signals.Apply(q -> {
            if ((flags & DistOps.SPAWN_LINKED) != 0) synchronized (q) { q.links.add(child); }
            if ((flags & DistOps.SPAWN_MONITORED) != 0) q.monitors.put(id, new ErlProcess.Monitor(id, q.pid, child, child, false));
            if (ok) q.mailbox.append(ETuple.of(r.tag(), id, EAtom.OK, child));
        }));
    }

    /** SPAWN_REQUEST {29, ReqId, From, GroupLeader, {M, F, Arity}, Opts} + Args from another node. */
    static void remoteRequest(DistConnection c, ETuple m, Term argList) {
        ERef id = (ERef) m.get(1);
        EPid from = (EPid) m.get(2);
        Term[] args = ECons.toArray(argList);
        Term[] os = ECons.toArray(m.get(5));
        if (!(m.get(4) instanceof ETuple mfa) || mfa.arity() != 3 || !(mfa.get(0) instanceof EAtom mod) || !(mfa.get(1) instanceof EAtom fun)
                || args == null || os == null) {
            c.send(ETuple.of(ESmall.of(DistOps.SPAWN_REPLY), id, from, ESmall.of(0), BADOPT), null);
            return;
        }
        ProcessTable.SpawnOptions so = new ProcessTable.SpawnOptions();
        boolean link = false, monitor = false;
        for (Term o : os) {
            if (o == LINK) link = true;
            else if (o == MONITOR) monitor = true;
            else if (o instanceof ETuple t && t.arity() == 2 && t.get(0) == PRIORITY && t.get(1) instanceof EAtom pr) so.priority = pr;
        }
        so.hold = true;
        if (m.get(3) instanceof EPid gl) so.groupLeader = gl;
        ErlProcess child = c.dist.vm.processes.spawn(null, mod, fun, args, so);
        if (link) child.links.add(from);
        if (monitor) child.monitoredBy.put(id, new ErlProcess.Monitor(id, from, child.pid, child.pid, false));
        int flags = (link ? DistOps.SPAWN_LINKED : 0) | (monitor ? DistOps.SPAWN_MONITORED : 0);
        // The reply goes out before the child can run, so nothing it sends overtakes it.
        c.send(ETuple.of(ESmall.of(DistOps.SPAWN_REPLY), id, from, ESmall.of(flags), child.pid), null);
        c.dist.vm.processes.release(child);
    }
}
