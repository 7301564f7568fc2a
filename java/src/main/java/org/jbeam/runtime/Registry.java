package org.jbeam.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.term.*;

/** Registered names: atom → pid or port (register/2, unregister/1, whereis/1, registered/0). */
public final class Registry {
    private final ConcurrentHashMap<EAtom, Term> names = new ConcurrentHashMap<>();

    public Term whereis(EAtom name) { return names.get(name); }

    /** Registers; false if the name is taken or the process already has a name. */
    public boolean register(EAtom name, ErlProcess p) {
        synchronized (p) {
            if (!p.isAlive() || p.registeredName != null) return false;
            if (names.putIfAbsent(name, p.pid) != null) return false;
            p.registeredName = name;
        }
        if (p.trace != null) org.jbeam.trace.Tracing.registered(p, name, true);
        return true;
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
