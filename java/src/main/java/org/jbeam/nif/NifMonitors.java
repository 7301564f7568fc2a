package org.jbeam.nif;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jbeam.bindings.nif.JbeamNif;
import org.jbeam.term.EPid;
import org.jbeam.term.ERef;

/**
 * enif_monitor_process: monitors held by native resources. Each monitor has a reference (the
 * runtime's, made through the {@link NifHost}); its opaque id is the monitor's identity in C
 * (ErlNifMonitor, enif_make_monitor_term). When the target exits the resource type's down
 * callback runs, unless the monitor was removed first, by enif_demonitor_process or because the
 * resource is being destructed. One lock orders these three, and is held while the down
 * callback runs, so a resource is never destructed under a running down callback (erts gives
 * the same guarantee). Upcalls never let an exception escape into C.
 */
final class NifMonitors {
    private NifMonitors() {}

    private record Entry(long res, EPid target, ERef ref, long id) {}

    private static final Object LOCK = new Object();
    private static final Map<Long, Entry> BY_ID = new HashMap<>();
    private static final Map<Long, List<Entry>> BY_RES = new HashMap<>();

    /** 0 = monitoring, {@code *out} = the monitor's id; 1 = not a live local process. */
    static int monitor(MemorySegment res, long pidId, MemorySegment out) {
        try {
            if (!(NifOpaque.term(pidId) instanceof EPid pid)) return 1;
            NifHost host = NifUpcalls.host;
            ERef ref = host.makeRef();
            long id = NifOpaque.id(ref);
            Entry e = new Entry(res.address(), pid, ref, id);
            synchronized (LOCK) {   // registered first: the target may exit as soon as the monitor exists
                BY_ID.put(id, e);
                BY_RES.computeIfAbsent(e.res, k -> new ArrayList<>()).add(e);
            }
            if (!host.monitor(ref, pid, () -> down(id))) {
                synchronized (LOCK) { remove(id); }
                return 1;
            }
            out.reinterpret(8).set(ValueLayout.JAVA_LONG, 0, id);
            return 0;
        } catch (Throwable t) { return 1; }
    }

    private static Entry remove(long id) {
        Entry e = BY_ID.remove(id);
        if (e != null) {
            List<Entry> l = BY_RES.get(e.res);
            if (l != null && l.remove(e) && l.isEmpty()) BY_RES.remove(e.res);
        }
        return e;
    }

    private static void down(long id) {
        try {
            synchronized (LOCK) {
                Entry e = remove(id);
                if (e == null) return;
                JbeamNif.RESOURCE_DOWN.invokeExact(MemorySegment.ofAddress(e.res), NifOpaque.id(e.target), id);
            }
        } catch (Throwable t) { /* the down callback's failure must not take the exiting process down */ }
    }

    /** 0 = removed, 1 = no such active monitor (already fired or removed). */
    static int demonitor(long id) {
        try {
            Entry e;
            synchronized (LOCK) { e = remove(id); }
            if (e == null) return 1;
            NifUpcalls.host.demonitor(e.ref, e.target);
            return 0;
        } catch (Throwable t) { return 1; }
    }

    /** The resource's count reached zero: its monitors go before its destructor runs. */
    static void demonitorAll(MemorySegment res) {
        try {
            List<Entry> l;
            synchronized (LOCK) {
                l = BY_RES.remove(res.address());
                if (l == null) return;
                for (Entry e : l) BY_ID.remove(e.id);
            }
            for (Entry e : l) NifUpcalls.host.demonitor(e.ref, e.target);
        } catch (Throwable t) { /* nothing to report to C */ }
    }

    /** Active monitors (for tests). */
    static int active() { synchronized (LOCK) { return BY_ID.size(); } }

}
