package org.jbeam.dist;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * {@code process_flag({monitor_nodes, Opts}, Bool)}, the runtime half of net_kernel:monitor_nodes/1,2:
 * subscribers get {@code {nodeup, N}} / {@code {nodedown, N}} (list options add a third element, a
 * proplist; map options a map) when connections come up and go down, and when this node gets its
 * name (global learns the name that way). Each subscription counts, as in erts.
 */
final class NodeEvents {
    private static final EAtom NODEUP = EAtom.of("nodeup"), NODEDOWN = EAtom.of("nodedown"), LIST = EAtom.of("list"),
            CONNECTION_ID = EAtom.of("connection_id"), NODE_TYPE = EAtom.of("node_type"), NODEDOWN_REASON = EAtom.of("nodedown_reason"),
            ALL = EAtom.of("all"), VISIBLE = EAtom.of("visible"), HIDDEN = EAtom.of("hidden");

    /** One kind of subscription of one process: the options map as given, and how many times it was taken. */
    private final ConcurrentHashMap<EPid, Map<EMap, Integer>> subs = new ConcurrentHashMap<>();

    /** Adds or removes one subscription; returns how many {@code p} had with these options before. */
    int subscribe(ErlProcess p, Term opts, boolean on) {
        if (!(opts instanceof EMap m)) throw ErlangException.badarg();
        for (Term k : m.keys()) {
            if (k != LIST && k != CONNECTION_ID && k != NODE_TYPE && k != NODEDOWN_REASON) throw ErlangException.badarg();
        }
        Term type = m.get(NODE_TYPE);
        if (type != null && type != ALL && type != VISIBLE && type != HIDDEN) throw ErlangException.badarg();
        int[] before = {0};
        subs.compute(p.pid, (pid, kinds) -> {
            // Kinds in subscription order: erts sends one process's messages in that order.
            if (kinds == null) kinds = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());
            Integer n = kinds.get(m);
            before[0] = n == null ? 0 : n;
            if (on) kinds.put(m, before[0] + 1);
            else kinds.remove(m);
            return kinds.isEmpty() ? null : kinds;
        });
        return before[0];
    }

    void nodeUp(Distribution d, EAtom node, long connId, boolean visible) { send(d, NODEUP, node, connId, visible, null); }

    void nodeDown(Distribution d, EAtom node, long connId, boolean visible, Term reason) { send(d, NODEDOWN, node, connId, visible, reason); }

    private void send(Distribution d, EAtom what, EAtom node, long connId, boolean visible, Term reason) {
        for (var e : subs.entrySet()) {
            List<Map.Entry<EMap, Integer>> kinds;
            synchronized (e.getValue()) { kinds = new ArrayList<>(e.getValue().entrySet()); }
            for (var k : kinds) {
                EMap o = k.getKey();
                Term type = o.get(NODE_TYPE);
                if (type == null ? !visible : type == VISIBLE ? !visible : type == HIDDEN && visible) continue;
                Term msg = message(o, what, node, connId, visible, reason);
                for (int i = 0; i < k.getValue(); i++) d.vm.sendTo(e.getKey(), msg);
            }
        }
    }

    private static Term message(EMap o, EAtom what, EAtom node, long connId, boolean visible, Term reason) {
        List<Term[]> info = new ArrayList<>();
        if (o.get(CONNECTION_ID) == EAtom.TRUE) info.add(new Term[] {CONNECTION_ID, EInteger.of(connId)});
        if (o.get(NODE_TYPE) != null) info.add(new Term[] {NODE_TYPE, visible ? VISIBLE : HIDDEN});
        if (reason != null && o.get(NODEDOWN_REASON) == EAtom.TRUE) info.add(new Term[] {NODEDOWN_REASON, reason});
        if (o.get(LIST) == EAtom.TRUE) {
            if (o.size() == 1) return ETuple.of(what, node);
            List<Term> l = new ArrayList<>();
            for (Term[] kv : info) l.add(ETuple.of(kv[0], kv[1]));
            return ETuple.of(what, node, ECons.of(l));
        }
        Term[] ks = new Term[info.size()], vs = new Term[info.size()];
        for (int i = 0; i < ks.length; i++) { ks[i] = info.get(i)[0]; vs[i] = info.get(i)[1]; }
        return ETuple.of(what, node, EMap.of(ks, vs));
    }
}
