package org.jbeam.dist;

import org.jbeam.etf.FunResolver;
import org.jbeam.etf.TermDecoder;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.runtime.Signals;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Incoming distribution packets: {@code 112, ControlMessage, [Payload]} (pass-through, since this
 * node does not offer the atom cache), turned into the local messages and signals they stand for.
 * Called on the connection's I/O thread, in arrival order, so per-pair ordering is kept.
 */
final class DistDispatch {
    private DistDispatch() {}

    /** The sequential trace token of a *_TT control message (its last element), or null. */
    private static ETuple token(ETuple m, ESmall op, int tt1, int tt2) {
        return (op.value == tt1 || op.value == tt2) && m.get(m.arity() - 1) instanceof ETuple t && t.arity() == 5 ? t : null;
    }

    /** {@code owned}: {@code b} is this packet's alone and never written again, so large binaries may view it. */
    static void handle(DistConnection c, byte[] b, int off, int len, boolean owned) {
        if ((b[off] & 0xFF) != DistOps.PASS_THROUGH) throw new IllegalArgumentException("no pass-through prefix: " + (b[off] & 0xFF));
        TermDecoder.Result ctl = TermDecoder.decode(b, off + 1, len - 1, false, org.jbeam.etf.EtfBifs.funResolver);
        int rest = len - 1 - ctl.used();
        Term payload = rest > 0 ? TermDecoder.decodeDist(b, off + 1 + ctl.used(), rest, owned, org.jbeam.etf.EtfBifs.funResolver).term() : null;
        if (!(ctl.term() instanceof ETuple m) || m.arity() < 1 || !(m.get(0) instanceof ESmall op))
            throw new IllegalArgumentException("bad control message " + ctl.term());
        Runtime vm = c.dist.vm;
        switch ((int) op.value) {
            // The *_TT forms carry the sender's sequential trace token last (ADR 0070).
            case DistOps.SEND, DistOps.SEND_TT, DistOps.SEND_SENDER, DistOps.SEND_SENDER_TT -> {
                if (m.get(2) instanceof EPid to) vm.sendTo(to, payload, token(m, op, DistOps.SEND_TT, DistOps.SEND_SENDER_TT));
            }
            case DistOps.REG_SEND, DistOps.REG_SEND_TT -> {
                if (m.get(3) instanceof EAtom name) {
                    Term to = vm.registry.whereis(name);
                    if (to instanceof EPid pid) vm.sendTo(pid, payload, token(m, op, DistOps.REG_SEND_TT, DistOps.REG_SEND_TT));
                    else if (to != null) vm.send(null, to, payload); // a registered port
                }
            }
            case DistOps.ALIAS_SEND, DistOps.ALIAS_SEND_TT -> {
                if (m.get(2) instanceof ERef alias) {
                    EPid to = vm.aliases.target(alias);
                    if (to != null) vm.sendTo(to, payload, token(m, op, DistOps.ALIAS_SEND_TT, DistOps.ALIAS_SEND_TT));
                }
            }
            case DistOps.LINK -> link(c, (EPid) m.get(1), (EPid) m.get(2));
            case DistOps.UNLINK -> signal(vm, (EPid) m.get(2), new Signals.Unlink((EPid) m.get(1)));
            case DistOps.UNLINK_ID -> {
                EPid from = (EPid) m.get(2), to = (EPid) m.get(3);
                signal(vm, to, new Signals.Unlink(from));
                c.send(ETuple.of(ESmall.of(DistOps.UNLINK_ID_ACK), m.get(1), to, from), null);
            }
            case DistOps.UNLINK_ID_ACK, DistOps.NODE_LINK -> { }
            case DistOps.EXIT, DistOps.EXIT_TT -> exit(vm, m.get(1), m.get(2), m.get(op.value == DistOps.EXIT ? 3 : 4), true);
            case DistOps.EXIT2, DistOps.EXIT2_TT -> exit(vm, m.get(1), m.get(2), m.get(op.value == DistOps.EXIT2 ? 3 : 4), false);
            case DistOps.PAYLOAD_EXIT, DistOps.PAYLOAD_EXIT_TT -> exit(vm, m.get(1), m.get(2), payload, true);
            case DistOps.PAYLOAD_EXIT2, DistOps.PAYLOAD_EXIT2_TT -> exit(vm, m.get(1), m.get(2), payload, false);
            case DistOps.GROUP_LEADER -> {
                if (m.get(2) instanceof EPid to && vm.resolve(to) instanceof ErlProcess p && m.get(1) instanceof EPid gl)
                    p.deliver(new Signals.Apply(q -> q.groupLeader = gl));
            }
            case DistOps.MONITOR_P -> monitor(c, (EPid) m.get(1), m.get(2), (ERef) m.get(3));
            case DistOps.DEMONITOR_P -> {
                EPid target = m.get(2) instanceof EPid t ? t : m.get(2) instanceof EAtom n && vm.registry.whereis(n) instanceof EPid t ? t : null;
                if (target != null) signal(vm, target, new Signals.Demonitor((ERef) m.get(3)));
            }
            case DistOps.MONITOR_P_EXIT -> down(c, m.get(1), (EPid) m.get(2), (ERef) m.get(3), m.get(4));
            case DistOps.PAYLOAD_MONITOR_P_EXIT -> down(c, m.get(1), (EPid) m.get(2), (ERef) m.get(3), payload);
            case DistOps.SPAWN_REQUEST, DistOps.SPAWN_REQUEST_TT -> SpawnRequests.remoteRequest(c, m, payload);
            case DistOps.SPAWN_REPLY, DistOps.SPAWN_REPLY_TT -> SpawnRequests.reply(c.dist, m);
            default -> throw new IllegalArgumentException("unknown control message " + m);
        }
    }

    private static void signal(Runtime vm, EPid to, Signals.Signal s) {
        ErlProcess p = vm.resolve(to);
        if (p != null) p.deliver(s);
    }

    private static void exit(Runtime vm, Term from, Term to, Term reason, boolean linked) {
        if (to instanceof EPid target) vm.exitSignal(from, target, reason, linked);
    }

    private static void link(DistConnection c, EPid from, EPid to) {
        ErlProcess p = c.dist.vm.resolve(to);
        boolean alive = false;
        if (p != null) synchronized (p) {
            alive = p.isAlive();
            if (alive) p.links.add(from);
        }
        if (!alive) {
            // A link to a process that is gone: the linker gets exit noproc, as erts answers.
            c.sendExit(true, to, from, EAtom.NOPROC);
        }
    }

    private static void monitor(DistConnection c, EPid watcher, Term target, ERef ref) {
        Runtime vm = c.dist.vm;
        EPid pid = target instanceof EPid t ? t : target instanceof EAtom n && vm.registry.whereis(n) instanceof EPid t ? t : null;
        ErlProcess p = pid != null ? vm.resolve(pid) : null;
        // The name, not the pid, goes back in MONITOR_P_EXIT for a monitor by name.
        Term name = p == null ? null : target instanceof EAtom n ? ETuple.of(n, vm.thisNode) : p.pid;
        if (p == null || !p.watchedBy(new ErlProcess.Monitor(ref, watcher, p.pid, name, false)))
            c.sendMonitorExit(target, watcher, ref, EAtom.NOPROC);
    }

    /** A monitor this node's process holds on a remote process fired. */
    private static void down(DistConnection c, Term fromProc, EPid watcher, ERef ref, Term reason) {
        Term obj = fromProc instanceof EAtom name ? ETuple.of(name, c.node) : fromProc;
        signal(c.dist.vm, watcher, new Signals.Down(ref, ETuple.of(EAtom.DOWN, ref, EAtom.PROCESS, obj, reason)));
    }
}
