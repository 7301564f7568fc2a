package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang:monitor/2,3 and demonitor/1,2: monitors on local and remote processes (by pid or
 * registered name) and on ports, with monitor/3's alias and tag options. Split from
 * {@link ErlangProcessBifs}: a monitor's set-up and removal (local table, the target's watch,
 * the distribution, the alias) is one concept, and {@link Aliases} removes monitors through
 * {@link #dropMonitor} too.
 */
final class MonitorBifs {
    private MonitorBifs() {}

    private static final String E = "erlang";
    private static final EAtom PORT = EAtom.of("port"), FLUSH = EAtom.of("flush"), INFO = EAtom.of("info");
    private static final EAtom TIME_OFFSET = EAtom.of("time_offset"), CLOCK_SERVICE = EAtom.of("clock_service");
    /** Also spawn_opt's {monitor, [{tag, T}]}. */
    static final EAtom TAG = EAtom.of("tag");
    private static final EAtom ALIAS = EAtom.of("alias"), EXPLICIT_UNALIAS = EAtom.of("explicit_unalias"),
            DEMONITOR = EAtom.of("demonitor"), REPLY_DEMONITOR = EAtom.of("reply_demonitor");

    static void register(BifTable t) {
        t.bif2(E, "monitor", (p, type, item) -> monitor(p, type, item, EAtom.DOWN, p.vm.makeRef()));
        t.bif3(E, "monitor", MonitorBifs::monitor3);
        t.bif1(E, "demonitor", (p, r) -> demonitor(p, r, ENil.NIL));
        t.bif2(E, "demonitor", MonitorBifs::demonitor);
    }

    /**
     * monitor/3: options {alias, explicit_unalias | demonitor | reply_demonitor} and {tag, T}. The
     * list is walked in place (gen_server:call passes [{alias, demonitor}] on every call).
     */
    private static Term monitor3(ErlProcess p, Term type, Term item, Term opts) {
        EAtom alias = null;
        Term tag = EAtom.DOWN;
        Term l = opts;
        for (; l instanceof ECons c; l = c.tail) {
            if (c.head instanceof ETuple ot && ot.arity() == 2 && ot.get(0) == ALIAS
                    && (ot.get(1) == EXPLICIT_UNALIAS || ot.get(1) == DEMONITOR || ot.get(1) == REPLY_DEMONITOR)) alias = (EAtom) ot.get(1);
            else if (c.head instanceof ETuple ot2 && ot2.arity() == 2 && ot2.get(0) == TAG) tag = ot2.get(1);
            else throw ErlangException.ertsBadarg("badopt");
        }
        if (l != ENil.NIL) throw ErlangException.ertsBadarg("badopt");
        ERef ref = alias == null ? p.vm.makeRef() : p.vm.aliases.monitorAlias(p,
                alias == REPLY_DEMONITOR ? Aliases.Mode.REPLY_DEMONITOR : alias == DEMONITOR ? Aliases.Mode.DEMONITOR : null);
        return monitor(p, type, item, tag, ref);
    }

    /** monitor/2,3; {@code tag} replaces 'DOWN' in the message (monitor/3's {tag, T}). */
    private static Term monitor(ErlProcess p, Term type, Term item, Term tag, ERef ref) {
        if (type == PORT) return monitorPort(p, item, tag, ref);
        if (type == TIME_OFFSET) {
            // The time offset is final (no time warp: erl's default), so this monitor never fires.
            if (item != CLOCK_SERVICE) throw ErlangException.badarg();
            return ref;
        }
        if (type != EAtom.PROCESS) throw ErlangException.ertsBadarg("badtype");
        Term name = item;
        EPid target;
        if (item instanceof EPid pid && pid.node != p.vm.nodeName) return monitorRemote(p, ref, pid.node, pid, pid, tag);
        if (item instanceof ETuple tu && tu.arity() == 2 && tu.get(0) instanceof EAtom a && tu.get(1) instanceof EAtom node
                && node != p.vm.thisNode) return monitorRemote(p, ref, node, a, item, tag);
        if (item instanceof EPid pid) target = pid;
        else if (item instanceof EAtom a) {
            Term w = p.vm.registry.whereis(a);
            target = w instanceof EPid wp ? wp : null;
            name = ETuple.of(a, p.vm.thisNode);
        } else if (item instanceof ETuple tu && tu.arity() == 2 && tu.get(0) instanceof EAtom a && tu.get(1) instanceof EAtom) {
            Term w = p.vm.registry.whereis(a);
            target = w instanceof EPid wp ? wp : null;
        } else throw ErlangException.badarg();
        if (p.pid.equals(target)) return ref; // monitoring oneself creates no monitor, as in OTP
        ErlProcess.Monitor mon = new ErlProcess.Monitor(ref, p.pid, target, name, false, tag);
        ErlProcess other = target == null ? null : p.vm.resolve(target);
        if (other == null || !other.watchedBy(mon)) {
            p.deliver(ETuple.of(tag, ref, EAtom.PROCESS, name, EAtom.NOPROC));
            return ref;
        }
        p.monitors.put(ref, mon);
        return ref;
    }

    /** A monitor on a process of another node; DOWN noconnection at once if the node cannot be reached. */
    private static Term monitorRemote(ErlProcess p, ERef ref, EAtom node, Term target, Term name, Term tag) {
        ErlProcess.Monitor mon = new ErlProcess.Monitor(ref, p.pid, target instanceof EPid t ? t : null, name, false, tag);
        p.monitors.put(ref, mon);
        if (!p.vm.dist.monitor(p, ref, node, target)) {
            p.monitors.remove(ref);
            p.deliver(ETuple.of(tag, ref, EAtom.PROCESS, name, EAtom.of("noconnection")));
        }
        return ref;
    }

    /** monitor(port, Port | Name): 'DOWN' with the port's exit reason, or noproc at once if it is not open. */
    private static Term monitorPort(ErlProcess p, Term item, Term tag, ERef ref) {
        Term id = item instanceof EAtom a ? p.vm.registry.whereis(a) : item;
        if (!(id instanceof EPort) && !(item instanceof EAtom)) throw ErlangException.badarg();
        org.jbeam.runtime.Ports.Port pt = p.vm.ports.get(id);
        Term name = item instanceof EAtom a ? ETuple.of(a, p.vm.thisNode) : item;
        ErlProcess.Monitor mon = new ErlProcess.Monitor(ref, p.pid, id instanceof EPort ? id : null, name, false, tag);
        p.monitors.put(ref, mon);
        if (pt == null || !p.vm.ports.monitor(pt, ref, mon)) {
            p.monitors.remove(ref);
            p.deliver(ETuple.of(tag, ref, PORT, name, EAtom.NOPROC));
        }
        return ref;
    }

    private static Term demonitor(ErlProcess p, Term r, Term opts) {
        if (!(r instanceof ERef ref)) throw ErlangException.badarg();
        boolean flush = false, info = false;
        Term l = opts;
        for (; l instanceof ECons c; l = c.tail) {
            if (c.head == FLUSH) flush = true;
            else if (c.head == INFO) info = true;
            else throw ErlangException.badarg();
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        ErlProcess.Monitor m = dropMonitor(p, ref);
        // An active monitor has not delivered its 'DOWN' (drain appends it only while the monitor
        // is still held, and drops it once removed), so only an inactive one needs the O(queue)
        // flush; gen_server:call's demonitor(Mref, [flush]) stays O(1) with a long mailbox.
        if (flush && m == null) p.flushDown(ref);
        return info ? EAtom.of(m != null) : EAtom.TRUE;
    }

    /** Removes monitor {@code ref} of {@code p} (and its alias unless explicit_unalias); the monitor or null. */
    static ErlProcess.Monitor dropMonitor(ErlProcess p, ERef ref) {
        ErlProcess.Monitor m = p.monitors.remove(ref);
        p.vm.aliases.monitorGone(ref, p.pid);
        if (m != null && m.target() instanceof EPid tp && tp.node != p.vm.nodeName) p.vm.dist.demonitor(p, ref, tp.node, tp);
        else if (m != null && m.target() == null && m.targetName() instanceof ETuple tn && tn.arity() == 2 && tn.get(1) instanceof EAtom node
                && node != p.vm.thisNode) p.vm.dist.demonitor(p, ref, node, tn.get(0));
        else if (m != null && m.target() instanceof EPort port && p.vm.ports.get(port) instanceof org.jbeam.runtime.Ports.Port pt)
            pt.monitors.remove(ref);
        else if (m != null && m.target() instanceof EPid tp && tp.process instanceof ErlProcess other)
            other.unwatch(ref);
        return m;
    }
}
