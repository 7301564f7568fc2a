package org.jbeam.dist;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.bif.BifTable;
import org.jbeam.runtime.DistPort;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** The natives net_kernel, dist_util and erlang.erl call to run the distribution. */
public final class DistBifs {
    private DistBifs() {}

    private static final String E = "erlang", I = "erts_internal";
    private static final EAtom VISIBLE = EAtom.of("visible"), HIDDEN = EAtom.of("hidden"), CONNECTED = EAtom.of("connected"),
            THIS = EAtom.of("this"), KNOWN = EAtom.of("known"), ERTS_DFLAGS = EAtom.of("erts_dflags"), SPAWN_OPT = EAtom.of("spawn_opt");

    public static void register(BifTable t) {
        DistCtrlBifs.register(t);
        t.guard0(E, "node", p -> p.vm.thisNode);
        t.guard1(E, "node", (p, x) -> {
            EAtom n = switch (x) {
                case EPid pid -> pid.node;
                case EPort port -> port.node;
                case ERef ref -> ref.node;
                default -> throw ErlangException.badarg();
            };
            return n == p.vm.nodeName ? p.vm.thisNode : n;
        });
        t.bif0(E, "nodes", p -> ECons.of(p.vm.dist.nodes(true, false)));
        t.bif1(E, "nodes", DistBifs::nodes);
        t.bif2(E, "nodes", (p, x, o) -> {
            if (!(o instanceof EMap opts)) throw ErlangException.badarg();
            boolean cid = opts.get(EAtom.of("connection_id")) == EAtom.TRUE, type = opts.get(EAtom.of("node_type")) == EAtom.TRUE;
            List<Term> l = new ArrayList<>();
            for (Term n : ECons.toArray(nodes(p, x))) l.add(ETuple.of(n, p.vm.dist.nodeInfo((EAtom) n, cid, type)));
            return ECons.of(l);
        });
        t.bif0(I, "dynamic_node_name", p -> EAtom.of(p.vm.dist.dynamicName));
        t.bif1(I, "dynamic_node_name", (p, b) -> {
            if (b != EAtom.TRUE && b != EAtom.FALSE) throw ErlangException.badarg();
            p.vm.dist.dynamicName = b == EAtom.TRUE;
            return EAtom.OK;
        });
        t.bif2(E, "setnode", (p, n, c) -> {
            if (!(n instanceof EAtom node) || !node.name.contains("@") || !(c instanceof ESmall cr)) throw ErlangException.badarg();
            p.vm.dist.setName(node, (int) cr.value, p.pid);
            return EAtom.TRUE;
        });
        t.bif3(I, "create_dist_channel", (p, n, ctrl, opts) -> {
            if (!(n instanceof EAtom node) || !(opts instanceof ETuple o) || o.arity() != 2 || !(o.get(0) instanceof ESmall flags)
                    || !(o.get(1) instanceof ESmall creation)) return EAtom.BADARG;
            Term handle;
            if (ctrl instanceof EPid pid) {
                // A process controller (TLS distribution, alternative carriers; DistCtrlBifs).
                if (pid.node != p.vm.nodeName || (handle = p.vm.dist.upOnProcess(node, pid, flags.value, (int) creation.value)) == null)
                    return EAtom.BADARG;
            } else {
                Ports.Port port = p.vm.ports.get(ctrl);
                if (port == null || !(port.driver instanceof DistPort dp)) return EAtom.BADARG;
                handle = p.vm.dist.up(node, dp, ctrl, flags.value, (int) creation.value);
            }
            // As erts does: net_kernel learns the controller of the connection being set up.
            if (p.vm.registry.whereis(Distribution.NET_KERNEL) instanceof EPid k)
                p.vm.sendTo(k, ETuple.of(EAtom.of("dist_ctrlr"), ctrl, node, p.pid));
            return ETuple.of(EAtom.OK, handle);
        });
        t.bif0(I, "get_dflags", p -> ETuple.of(ERTS_DFLAGS, EInteger.of(Distribution.DEFAULT_FLAGS), EInteger.of(Distribution.MANDATORY_FLAGS),
                EInteger.of(Distribution.DEFAULT_FLAGS), EInteger.of(Distribution.REJECTABLE_FLAGS), EInteger.of(Distribution.STRICT_ORDER_FLAGS)));
        t.bif1(I, "new_connection", (p, n) -> {
            if (!(n instanceof EAtom node)) throw ErlangException.badarg();
            return p.vm.dist.newConnection(node);
        });
        t.bif2(I, "abort_pending_connection", (p, n, id) -> {
            if (!(n instanceof EAtom node)) throw ErlangException.badarg();
            return EAtom.of(p.vm.dist.abortPending(node, id));
        });
        t.bif1(E, "dist_get_stat", (p, h) -> {
            long[] s = p.vm.dist.stats(h);
            if (s == null) throw ErlangException.badarg();
            return ETuple.of(EAtom.OK, EInteger.of(s[0]), EInteger.of(s[1]), EAtom.of(s[2] > 0));
        });
        t.bif2(E, "monitor_node", (p, n, f) -> monitorNode(p, n, f));
        t.bif3(E, "monitor_node", (p, n, f, o) -> {
            if (ECons.length(o) < 0) throw ErlangException.badarg();
            return monitorNode(p, n, f);
        });
        t.bif4(I, "dist_spawn_request", (p, a) -> {
            if (!(a[0] instanceof EAtom node) || !(a[1] instanceof ETuple mfa) || mfa.arity() != 3 || !(mfa.get(0) instanceof EAtom m)
                    || !(mfa.get(1) instanceof EAtom f)) return EAtom.BADARG;
            return SpawnRequests.request(p.vm.dist, p, node, m, f, mfa.get(2), a[2], a[3] == SPAWN_OPT);
        });
    }

    private static Term monitorNode(ErlProcess p, Term n, Term f) {
        if (!(n instanceof EAtom node) || (f != EAtom.TRUE && f != EAtom.FALSE)) throw ErlangException.badarg();
        if (!p.vm.dist.alive() && f == EAtom.TRUE && node != p.vm.thisNode) throw ErlangException.error(EAtom.of("notalive"));
        p.vm.dist.monitorNode(p, node, f == EAtom.TRUE);
        return EAtom.TRUE;
    }

    private static Term nodes(ErlProcess p, Term arg) {
        Term[] kinds = arg instanceof EAtom ? new Term[] {arg} : ECons.toArray(arg);
        if (kinds == null) throw ErlangException.badarg();
        boolean visible = false, hidden = false, self = false;
        for (Term k : kinds) {
            if (k == VISIBLE) visible = true;
            else if (k == HIDDEN) hidden = true;
            else if (k == CONNECTED || k == KNOWN) { visible = true; hidden = true; if (k == KNOWN) self = true; }
            else if (k == THIS) self = true;
            else throw ErlangException.badarg();
        }
        List<Term> l = new ArrayList<>();
        if (self) l.add(p.vm.thisNode);
        l.addAll(p.vm.dist.nodes(visible, hidden));
        return ECons.of(l);
    }
}
