package org.jbeam.bif;

import java.util.Map;
import java.util.WeakHashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * erlang:system_monitor/0,1,2: the monitor process and its options, kept and answered as erts does
 * (options listed in erts' order, long_gc/long_schedule at least 1, large_heap at least 16384 words,
 * the last of a repeated option wins, an empty list or undefined turns it off, a monitor process
 * that has died counts as none). The settings are published to the runtime
 * ({@link org.jbeam.runtime.Runtime#systemMonitor}), which sends long_schedule events
 * ({@link org.jbeam.runtime.SystemMonitorEvents}, ADR 0065), and busy_dist_port events are sent by
 * {@code dist/DistBusy} (ADR 0064); the other options are accepted and their events never sent (see there).
 */
final class SystemMonitor {
    private SystemMonitor() {}

    private static final EAtom LONG_GC = EAtom.of("long_gc"), LONG_SCHEDULE = EAtom.of("long_schedule"),
            LARGE_HEAP = EAtom.of("large_heap"), BUSY_PORT = EAtom.of("busy_port"), BUSY_DIST_PORT = EAtom.of("busy_dist_port");

    /** The current setting per node: {Pid, Options}. */
    private static final Map<Runtime, ETuple> SETTINGS = new WeakHashMap<>();

    static void register(BifTable t) {
        t.bif0("erlang", "system_monitor", p -> get(p));
        t.bif1("erlang", "system_monitor", (p, a) -> {
            if (a == EAtom.UNDEFINED) return set(p, null, null);
            if (a instanceof ETuple tu && tu.arity() == 2) return set2(p, tu.get(0), tu.get(1), a);
            throw ErlangException.badarg();
        });
        t.bif2("erlang", "system_monitor", (p, pid, opts) -> set2(p, pid, opts, null));
    }

    private static Term get(ErlProcess p) {
        synchronized (SETTINGS) {
            ETuple s = SETTINGS.get(p.vm);
            if (s == null) return EAtom.UNDEFINED;
            ErlProcess m = p.vm.resolve((EPid) s.get(0));
            if (m == null || !m.isAlive()) { SETTINGS.remove(p.vm); p.vm.systemMonitor = null; return EAtom.UNDEFINED; }
            return s;
        }
    }

    /** Sets {Pid, Options} (null: off) and the runtime's view of it, which the events are sent from. */
    private static Term set(ErlProcess p, ETuple s, org.jbeam.runtime.SystemMonitorEvents.Settings events) {
        synchronized (SETTINGS) {
            Term old = get(p);
            if (s == null) SETTINGS.remove(p.vm); else SETTINGS.put(p.vm, s);
            p.vm.systemMonitor = events;
            return old;
        }
    }

    private static Term set2(ErlProcess p, Term pid, Term opts, Term arg1) {
        Term[] os = ECons.toArray(opts);
        if (os == null) throw ErlangException.badarg();
        if (os.length == 0) return set(p, null, null);
        if (!(pid instanceof EPid mp) || mp.node != p.vm.nodeName) throw ErlangException.badarg();
        Term gc = null, sched = null, heap = null;
        boolean busyPort = false, busyDist = false;
        for (Term o : os) {
            if (o == BUSY_PORT) busyPort = true;
            else if (o == BUSY_DIST_PORT) busyDist = true;
            else if (o instanceof ETuple tu && tu.arity() == 2 && tu.get(1) instanceof ESmall v && v.value >= 0) {
                if (tu.get(0) == LONG_GC) gc = ESmall.of(Math.max(1, v.value));
                else if (tu.get(0) == LONG_SCHEDULE) sched = ESmall.of(Math.max(1, v.value));
                else if (tu.get(0) == LARGE_HEAP) heap = ESmall.of(Math.max(16384, v.value));
                else throw ErlangException.badarg();
            } else throw ErlangException.badarg();
        }
        Term l = ENil.NIL;
        if (gc != null) l = new ECons(ETuple.of(LONG_GC, gc), l);
        if (sched != null) l = new ECons(ETuple.of(LONG_SCHEDULE, sched), l);
        if (heap != null) l = new ECons(ETuple.of(LARGE_HEAP, heap), l);
        if (busyPort) l = new ECons(BUSY_PORT, l);
        if (busyDist) l = new ECons(BUSY_DIST_PORT, l);
        return set(p, ETuple.of(pid, l), new org.jbeam.runtime.SystemMonitorEvents.Settings(
                mp, sched == null ? 0 : ((ESmall) sched).value, busyDist));
    }
}
