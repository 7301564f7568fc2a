package org.jbeam.dist;

import org.jbeam.trace.SeqTrace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.etf.TermDecoder;
import org.jbeam.runtime.DistPort;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.runtime.Signals;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The Erlang distribution as erts does it under OTP's own {@code net_kernel}, {@code dist_util} and
 * {@code inet_tcp_dist}: the Erlang code sets up the TCP connection and runs the handshake, then hands
 * the port to {@code erlang:setnode/3}; from there the runtime owns the connection. Messages and
 * signals to other nodes' pids are encoded as distribution control messages (pass-through form, no
 * atom cache) and sent on that port; incoming ones are decoded by {@link DistDispatch}. A send to a
 * node with no connection creates a pending one, queues the data and asks {@code net_kernel} to
 * connect ({@code {auto_connect, Node, ConnId}}), as erts does. When a connection goes down, links
 * and monitors across it fire with {@code noconnection} and {@code monitor_node} subscribers get
 * {@code {nodedown, Node}}. See ADR 0015.
 */
public final class Distribution {
    static final long PUBLISHED = 0x1, ATOM_CACHE_HDR = 0x2000, FRAGMENTS = 0x800000, EXIT_PAYLOAD = 0x400000,
            UNLINK_ID = 0x2000000, ALIAS = 0x8L << 32;
    /** erts 13's default flags, without the atom cache header and fragments this runtime does not implement. */
    static final long DEFAULT_FLAGS = 0xd07df7fbcL & ~ATOM_CACHE_HDR & ~FRAGMENTS;
    static final long MANDATORY_FLAGS = 0x1070f94L, REJECTABLE_FLAGS = 0x802042L, STRICT_ORDER_FLAGS = 0x2000L;

    static final EAtom NOCONNECTION = EAtom.of("noconnection"), NODEDOWN = EAtom.of("nodedown"),
            AUTO_CONNECT = EAtom.of("auto_connect"), NET_KERNEL = EAtom.of("net_kernel"), EMPTY = EAtom.of("");

    final Runtime vm;
    private final ConcurrentHashMap<EAtom, DistConnection> conns = new ConcurrentHashMap<>();
    private final AtomicLong connIds = new AtomicLong(1);
    private final AtomicLong unlinkIds = new AtomicLong(1);
    /** monitor_node/2 subscriptions: node → (process → count). */
    private final ConcurrentHashMap<EAtom, Map<EPid, Integer>> nodeMonitors = new ConcurrentHashMap<>();
    /** Outstanding spawn_request/5 calls to other nodes, by request id. */
    final ConcurrentHashMap<ERef, SpawnRequests.Request> spawnRequests = new ConcurrentHashMap<>();
    volatile boolean dynamicName;
    final NodeEvents events = new NodeEvents();

    public Distribution(Runtime vm) { this.vm = vm; }

    /** dist_buf_busy_limit in bytes (erl's +zdbbl, in KiB; default 1 MiB): see {@link DistBusy}. */
    public volatile long busyLimit = 1024 * 1024;

    /**
     * After a send of {@code p}'s left a connection over its busy limit ({@code p.busyDist}):
     * suspends {@code p} until the queue drains (true: the caller yields at once), as erts.
     */
    public boolean suspendBusySender(ErlProcess p) {
        DistConnection c = (DistConnection) p.busyDist;
        p.busyDist = null;
        return c.busy.suspend(p);
    }

    /** A nosuspend send to {@code node} would have suspended: its connection is busy. */
    public boolean isBusy(EAtom node) {
        DistConnection c = conns.get(node);
        return c != null && !c.isDead() && c.busy.isBusy();
    }

    public boolean alive() { return vm.thisNode != EAtom.NONODE; }

    /** The process that named this node (net_kernel): when it exits the node is no longer alive. */
    private volatile EPid namedBy;

    /**
     * erlang:setnode/2 from {@code caller}: this node's name and creation (pids etc. are written
     * with them on the wire). As erts ties the name to net_kernel, the caller's exit undoes it
     * ({@link #namerExited}).
     */
    public void setName(EAtom name, int creation, EPid caller) {
        namedBy = caller;
        rename(name, creation);
        // As erts: monitor_nodes subscribers hear that this node came up under its name.
        events.nodeUp(this, name, 0, true);
    }

    /**
     * The process that called setnode exited (net_kernel:stop/0, or it crashed): as erts'
     * erts_do_net_exits, every connection is killed, the node is nonode@nohost again (a later
     * net_kernel:start names it anew), and monitor_nodes subscribers get a nodedown for it.
     */
    public void namerExited(EPid pid) {
        if (!pid.equals(namedBy)) return;
        namedBy = null;
        for (DistConnection c : new ArrayList<>(conns.values())) c.close();
        EAtom old = vm.thisNode;
        rename(EAtom.NONODE, 0);
        events.nodeDown(this, old, 0, true, EAtom.of("net_kernel_terminated"));
    }

    private void rename(EAtom name, int creation) {
        vm.thisCreation = creation;
        TermDecoder.localCreation = creation;
        TermDecoder.localNode = name;
        org.jbeam.term.TermOrder.localNode = name;
        TermDecoder.livePids = n -> {
            ErlProcess p = vm.processes.byNumber((int) n);
            return p != null ? p.pid : null;
        };
        vm.thisNode = name;
    }

    /** process_flag({monitor_nodes, Opts}, On): how many such subscriptions the process had. */
    public int monitorNodes(ErlProcess p, Term opts, boolean on) { return events.subscribe(p, opts, on); }

    /** erlang:nodes/2 info for {@code node}: connection_id and node_type as asked. */
    public Term nodeInfo(EAtom node, boolean connectionId, boolean nodeType) {
        DistConnection c = conns.get(node);
        List<Term> ks = new ArrayList<>(), vs = new ArrayList<>();
        if (connectionId) { ks.add(EAtom.of("connection_id")); vs.add(c == null ? EAtom.UNDEFINED : EInteger.of(c.number)); }
        if (nodeType) {
            ks.add(EAtom.of("node_type"));
            vs.add(c == null ? EAtom.of("this") : EAtom.of((c.flags() & PUBLISHED) != 0 ? "visible" : "hidden"));
        }
        return EMap.of(ks.toArray(new Term[0]), vs.toArray(new Term[0]));
    }

    // ---- connections ----

    /** erts_internal:new_connection/1: the id of the node's connection, creating a pending one. */
    public Term newConnection(EAtom node) {
        return current(node, null).connId();
    }

    /** erts_internal:abort_pending_connection/2: true if the pending connection {@code id} was dropped. */
    public boolean abortPending(EAtom node, Term id) {
        DistConnection c = conns.get(node);
        if (c == null || !c.connId().equals(id) || !c.abort()) return false;
        conns.remove(node, c);
        down(c);
        return true;
    }

    /** erlang:setnode/3: the handshake on {@code port} is done; the connection is up. Returns the handle. */
    public Term up(EAtom node, DistPort port, Term ctrl, long flags, int creation) { return upOn(node, port, ctrl, flags, creation).connId(); }

    private DistConnection upOn(EAtom node, DistPort port, Term ctrl, long flags, int creation) {
        DistConnection c = current(node, null);
        c.controller = ctrl;
        if (!c.up(port, flags, creation)) throw ErlangException.badarg();
        return c;
    }

    /** erlang:system_info(dist_ctrl): {Node, Controller} of every connection that is up. */
    public List<Term> controllers() {
        List<Term> l = new ArrayList<>();
        for (DistConnection c : conns.values()) if (c.isUp()) l.add(ETuple.of(c.node, c.controller));
        return l;
    }

    /**
     * The node's connection, or a new pending one (stored in {@code made[0]}) if there is none or
     * the one there is dead: a reconnect may start before the old connection's cleanup has run.
     */
    private DistConnection current(EAtom node, DistConnection[] made) {
        return conns.compute(node, (n, old) -> {
            if (old != null && !old.isDead()) return old;
            DistConnection c = new DistConnection(this, n, connIds.getAndIncrement());
            if (made != null) made[0] = c;
            return c;
        });
    }

    /** Process controllers of live connections (erts' ERTS_PROC_GET_DIST_ENTRY), by controller pid. */
    private final ConcurrentHashMap<EPid, ProcessCarrier> controllers = new ConcurrentHashMap<>();

    /**
     * erlang:setnode/3 with a process as controller (TLS distribution, alternative carriers): null
     * (badarg) if {@code ctrl} is not a live local process or already controls a connection.
     */
    public Term upOnProcess(EAtom node, EPid ctrl, long flags, int creation) {
        ProcessCarrier carrier = new ProcessCarrier(this, ctrl);
        if (controllers.putIfAbsent(ctrl, carrier) != null) return null;
        if (vm.resolve(ctrl) == null) { controllers.remove(ctrl, carrier); return null; }
        DistConnection c;
        try {
            c = upOn(node, carrier, ctrl, flags, creation);
        } catch (ErlangException e) {
            controllers.remove(ctrl, carrier);
            throw e;
        }
        c.inputHandler = ctrl;
        carrier.conn = c;
        // The controller may have exited while the connection was being set up: it goes down at once.
        if (carrier.isDead()) c.closed(null);
        return c.connId();
    }

    /** The connection {@code pid} controls, or null if it controls none (the dist_ctrl_* BIFs raise notsup). */
    ProcessCarrier controlledBy(EPid pid) { return controllers.get(pid); }

    /**
     * A process exited: if it controlled a connection, the connection goes down (also after
     * net_kernel stopped: the node is then no longer alive but its connections are still closing).
     */
    public void controllerExited(EPid pid, Term reason) {
        if (controllers.isEmpty()) return;
        ProcessCarrier carrier = controllers.remove(pid);
        if (carrier != null) carrier.controllerExited(reason);
    }

    DistConnection byHandle(Term handle) {
        for (DistConnection c : conns.values()) if (c.connId().equals(handle)) return c;
        return null;
    }

    public long[] stats(Term handle) {
        DistConnection c = byHandle(handle);
        return c == null ? null : c.stats();
    }

    /** The connection to {@code node} for sending, asking net_kernel to set one up if there is none. */
    DistConnection connection(EAtom node) {
        if (!alive() || node == vm.thisNode) return null;
        DistConnection c = conns.get(node);
        if (c != null && !c.isDead()) return c;
        DistConnection[] made = new DistConnection[1];
        c = current(node, made);
        if (c != made[0]) return c;
        DistConnection fresh = c;
        Term kernel = vm.registry.whereis(NET_KERNEL);
        if (!(kernel instanceof EPid k)) {
            conns.remove(node, fresh);
            return null;
        }
        vm.sendTo(k, ETuple.of(AUTO_CONNECT, node, fresh.connId()));
        return fresh;
    }

    /** Called by a connection that went down (socket closed, or an aborted pending connection). */
    void down(DistConnection c) {
        conns.remove(c.node, c);
        EAtom node = c.node;
        for (SpawnRequests.Request r : spawnRequests.values()) if (r.node() == node) SpawnRequests.failed(this, r, NOCONNECTION);
        for (ErlProcess p : vm.processes.all()) {
            List<Signals.Signal> sigs = new ArrayList<>();
            synchronized (p) {
                for (EPid l : p.links) if (l.node == node) sigs.add(new Signals.Exit(l, NOCONNECTION, true));
                p.monitoredBy.values().removeIf(m -> m.watcher().node == node);
            }
            // The monitors this process holds: DOWN noconnection, in its own context (the map is its own).
            sigs.add(new Signals.Apply(q -> {
                for (ErlProcess.Monitor m : new ArrayList<>(q.monitors.values())) {
                    if (onNode(m, node) && q.monitors.remove(m.ref()) != null) {
                        q.vm.aliases.monitorGone(m.ref(), q.pid);
                        q.mailbox.append(ETuple.of(m.tag(), m.ref(), EAtom.PROCESS, m.targetName(), NOCONNECTION));
                    }
                }
            }));
            for (Signals.Signal s : sigs) p.deliver(s);
        }
        if (c.wasUp) events.nodeDown(this, node, c.number, (c.flags() & PUBLISHED) != 0, c.downReason);
        Map<EPid, Integer> subs = nodeMonitors.remove(node);
        if (subs != null) {
            for (var e : subs.entrySet())
                for (int i = 0; i < e.getValue(); i++) vm.sendTo(e.getKey(), ETuple.of(NODEDOWN, node));
        }
    }

    private static boolean onNode(ErlProcess.Monitor m, EAtom node) {
        if (m.target() instanceof EPid t) return t.node == node;
        return m.targetName() instanceof ETuple t && t.arity() == 2 && t.get(1) == node;
    }

    /** erlang:nodes/1 kinds: visible (published) and hidden connections that are up. */
    public List<Term> nodes(boolean visible, boolean hidden) {
        List<Term> l = new ArrayList<>();
        for (DistConnection c : conns.values()) {
            if (!c.isUp()) continue;
            boolean pub = (c.flags() & PUBLISHED) != 0;
            if (pub ? visible : hidden) l.add(c.node);
        }
        return l;
    }

    /** A connection to {@code node} exists, up or being set up (send/3's noconnect sends on it). */
    public boolean hasConnection(EAtom node) {
        DistConnection c = conns.get(node);
        return c != null && !c.isDead();
    }

    public boolean isConnected(EAtom node) {
        DistConnection c = conns.get(node);
        return c != null && c.isUp();
    }

    /** erlang:disconnect_node/1 for an up connection: closes it (net_kernel sees its owner exit). */
    public boolean disconnect(EAtom node) {
        DistConnection c = conns.get(node);
        if (c == null) return false;
        c.close();
        return true;
    }

    /** erlang:monitor_node(Node, Flag). */
    public void monitorNode(ErlProcess p, EAtom node, boolean on) {
        if (!on) {
            nodeMonitors.computeIfPresent(node, (n, m) -> {
                m.computeIfPresent(p.pid, (k, v) -> v > 1 ? v - 1 : null);
                return m.isEmpty() ? null : m;
            });
            return;
        }
        if (node == vm.thisNode && alive()) return;
        DistConnection c = connection(node);
        if (c == null) { p.deliver(ETuple.of(NODEDOWN, node)); return; }
        nodeMonitors.computeIfAbsent(node, n -> new ConcurrentHashMap<>()).merge(p.pid, 1, Integer::sum);
    }

    // ---- outgoing messages and signals ----

    /*
     * A sender with a sequential trace token (ADR 0070) sends the *_TT form, the token last; the
     * send event names the destination as given (pid, name or alias), the receiving node traces
     * the receive.
     */

    public void send(ErlProcess from, EPid to, Term msg) {
        DistConnection c = connection(to.node);
        if (c == null) return;
        if (from != null && from.seqToken != null)
            c.send(ETuple.of(ESmall.of(DistOps.SEND_TT), EMPTY, to, SeqTrace.sent(from, to, msg)), msg, from);
        else c.send(ETuple.of(ESmall.of(DistOps.SEND), EMPTY, to), msg, from);
    }

    public void sendNamed(ErlProcess from, EAtom name, EAtom node, Term msg) {
        DistConnection c = connection(node);
        if (c == null) return;
        if (from != null && from.seqToken != null)
            c.send(ETuple.of(ESmall.of(DistOps.REG_SEND_TT), sender(from), EMPTY, name, SeqTrace.sent(from, ETuple.of(name, node), msg)), msg, from);
        else c.send(ETuple.of(ESmall.of(DistOps.REG_SEND), sender(from), EMPTY, name), msg, from);
    }

    public void sendAlias(ErlProcess from, ERef alias, Term msg) {
        DistConnection c = connection(alias.node);
        if (c == null || !c.has(ALIAS)) return;
        if (from != null && from.seqToken != null)
            c.send(ETuple.of(ESmall.of(DistOps.ALIAS_SEND_TT), sender(from), alias, SeqTrace.sent(from, alias, msg)), msg, from);
        else c.send(ETuple.of(ESmall.of(DistOps.ALIAS_SEND), sender(from), alias), msg, from);
    }

    private static EPid sender(ErlProcess from) { return from != null ? from.pid : new EPid(EAtom.NONODE, 0, 0, 0); }

    /** A signal to a pid on another node (links, exits, monitors, DOWN) as a control message. */
    public void signal(EPid to, Signals.Signal s) {
        DistConnection c = connection(to.node);
        if (c == null) { unreachable(to, s); return; }
        switch (s) {
            case Signals.Exit e when e.from() instanceof EPid from -> c.sendExit(e.linked(), from, to, e.reason());
            case Signals.Link l -> c.send(ETuple.of(ESmall.of(DistOps.LINK), l.from(), to), null);
            case Signals.Unlink u -> {
                if (c.has(UNLINK_ID)) c.send(ETuple.of(ESmall.of(DistOps.UNLINK_ID), EInteger.of(unlinkIds.getAndIncrement()), u.from(), to), null);
                else c.send(ETuple.of(ESmall.of(DistOps.UNLINK), u.from(), to), null);
            }
            case Signals.Down d when d.message() instanceof ETuple m && m.arity() == 5 -> {
                Term obj = m.get(3) instanceof ETuple named && named.arity() == 2 ? named.get(0) : m.get(3);
                c.sendMonitorExit(obj, to, d.ref(), m.get(4));
            }
            default -> { }
        }
    }

    /** A remote monitor: {@code target} is the remote pid or the registered name on {@code node}. */
    public boolean monitor(ErlProcess p, ERef ref, EAtom node, Term target) {
        DistConnection c = connection(node);
        if (c == null) return false;
        c.send(ETuple.of(ESmall.of(DistOps.MONITOR_P), p.pid, target, ref), null);
        return true;
    }

    public void demonitor(ErlProcess p, ERef ref, EAtom node, Term target) {
        DistConnection c = conns.get(node);
        if (c != null) c.send(ETuple.of(ESmall.of(DistOps.DEMONITOR_P), p.pid, target, ref), null);
    }

    public void groupLeader(EPid leader, EPid target) {
        DistConnection c = connection(target.node);
        if (c != null) c.send(ETuple.of(ESmall.of(DistOps.GROUP_LEADER), leader, target), null);
    }

    /** No connection can carry the signal: a link or monitor answers noconnection at once. */
    private void unreachable(EPid to, Signals.Signal s) {
        switch (s) {
            case Signals.Link l -> vm.exitSignal(to, l.from(), NOCONNECTION, true);
            default -> { }
        }
    }
}
