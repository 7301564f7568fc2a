package org.jbeam.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.term.*;

/** Registered names: atom → pid or port (register/2, unregister/1, whereis/1, registered/0). */
public final class Registry {
    private final ConcurrentHashMap<EAtom, Term> names = new ConcurrentHashMap<>();

    public Term whereis(EAtom name) { return names.get(name); }

    /** Outcomes of {@link #register}: erts' checks in its order (error_info causes notalive, registered_name, none). */
    public static final int REGISTERED = 0, NOT_ALIVE = 1, HAS_NAME = 2, NAME_TAKEN = 3;

    /** Registers {@code p} as {@code name}; REGISTERED, or why not (the first failing check). */
    public int register(EAtom name, ErlProcess p) {
        synchronized (p) {
            if (!p.isAlive()) return NOT_ALIVE;
            if (p.registeredName != null) return HAS_NAME;
            if (names.putIfAbsent(name, p.pid) != null) return NAME_TAKEN;
            p.registeredName = name;
        }
        if (p.trace != null) org.jbeam.trace.Tracing.registered(p, name, true);
        return REGISTERED;
    }

    public boolean registerPort(EAtom name, EPort port) { return names.putIfAbsent(name, port) == null; }

    /** Registers a pid that is no process (an embedding API mailbox); false if the name is taken. */
    public boolean registerSink(EAtom name, EPid pid) { return names.putIfAbsent(name, pid) == null; }

    public boolean unregister(EAtom name) {
        Term t = names.remove(name);
        if (t instanceof EPid pid && pid.process instanceof ErlProcess p) {
            synchronized (p) { if (p.registeredName == name) p.registeredName = null; }
            if (p.trace != null) org.jbeam.trace.Tracing.registered(p, name, false);
        }
        return t != null;
    }

    public List<Term> names() { return new ArrayList<>(names.keySet()); }
}
