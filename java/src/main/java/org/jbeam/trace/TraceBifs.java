package org.jbeam.trace;

import org.jbeam.bif.BifModule;
import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang:trace/3, trace_info/2 and trace_delivered/1 for processes (the process half of erts'
 * erl_bif_trace.c). The tracer is a local process or a local open port ({@code {tracer, Port}},
 * which gets each message as term_to_binary, see {@link Tracing}). Ports cannot be traced yet: a
 * port as PidPortSpec is a badarg, and the port specs ({@code ports}, {@code existing_ports},
 * {@code new_ports}) match nothing.
 */
public final class TraceBifs implements BifModule {
    private static final EAtom TRACER = EAtom.of("tracer"), FLAGS = EAtom.of("flags"), ALL = EAtom.of("all"),
            PROCESSES = EAtom.of("processes"), EXISTING = EAtom.of("existing"),
            EXISTING_PROCESSES = EAtom.of("existing_processes"), NEW = EAtom.of("new"),
            NEW_PROCESSES = EAtom.of("new_processes"), PORTS = EAtom.of("ports"), EXISTING_PORTS = EAtom.of("existing_ports"),
            NEW_PORTS = EAtom.of("new_ports"), TRACE_DELIVERED = EAtom.of("trace_delivered");

    @Override public void register(BifTable t) {
        t.bif3("erlang", "trace", TraceBifs::trace);
        t.bif2("erlang", "trace_info", TraceBifs::traceInfo);
        TracePatternBif.register(t);
        t.bif1("erlang", "trace_delivered", (p, who) -> {
            if (!(who == ALL || who instanceof EPid pid && pid.node == p.vm.nodeName)) throw ErlangException.badarg();
            ERef ref = p.vm.makeRef();
            // Trace messages are put into the tracer's inbox by the tracee itself before the event
            // completes, so every message generated before this call is already delivered.
            p.vm.sendTo(p.pid, ETuple.of(TRACE_DELIVERED, who, ref));
            return ref;
        });
    }

    /** The parsed flag list: bits and an explicit tracer (null when none was given). */
    private record Request(int flags, Term tracer) {}

    private static Term trace(ErlProcess p, Term spec, Term how, Term flagList) {
        Request r = parse(p, flagList);
        if (how != EAtom.TRUE && how != EAtom.FALSE) throw ErlangException.badarg();
        boolean on = how == EAtom.TRUE;
        Term tracer = r.tracer() != null ? r.tracer() : p.pid;
        if (spec instanceof EPid pid) {
            if (pid.node != p.vm.nodeName) throw ErlangException.badarg();
            ErlProcess q = p.vm.resolve(pid);
            if (q == null || !q.isAlive() || !apply(q, on, r.flags(), tracer)) throw ErlangException.badarg();
            return ESmall.of(1);
        }
        if (spec == NEW || spec == NEW_PROCESSES) { setNew(p, on, r.flags(), tracer); return ESmall.ZERO; }
        if (spec == NEW_PORTS || spec == PORTS || spec == EXISTING_PORTS) return ESmall.ZERO;
        if (spec == ALL || spec == PROCESSES || spec == EXISTING || spec == EXISTING_PROCESSES) {
            int n = 0;
            for (ErlProcess q : p.vm.processes.all())
                if (q.isAlive() && apply(q, on, r.flags(), tracer)) n++;
            if (spec == ALL || spec == PROCESSES) setNew(p, on, r.flags(), tracer);
            return ESmall.of(n);
        }
        throw ErlangException.badarg();
    }

    private static Request parse(ErlProcess p, Term list) {
        int flags = 0;
        Term tracer = null;
        Term l = list;
        while (l instanceof ECons c) {
            Term f = c.head;
            if (f instanceof EAtom a) {
                int bit = TraceFlags.bit(a);
                if (bit == 0) throw ErlangException.badarg();
                flags |= bit;
            } else if (f instanceof ETuple t && t.arity() == 2 && t.get(0) == TRACER) {
                // A local process or port (module tracers are not supported). erts accepts a dead
                // process: the tracee's flags go when it first has something to send; a port must
                // be open.
                Term tt = t.get(1);
                if (tt instanceof EPid tp && tp.node == p.vm.nodeName) tracer = tp;
                else if (tt instanceof EPort tp && tp.node == p.vm.nodeName && p.vm.ports.get(tp) != null) tracer = tp;
                else throw ErlangException.badarg();
            } else {
                throw ErlangException.badarg();
            }
            l = c.tail;
        }
        if (l != ENil.NIL) throw badopt();
        return new Request(flags, tracer);
    }

    /**
     * Sets or clears {@code flags} on {@code q}. Setting names a tracer, the caller unless the list
     * gave one; a process traced by another live tracer cannot get a different one (false). With no
     * flags left the tracer goes too.
     */
    private static boolean apply(ErlProcess q, boolean on, int flags, Term tracer) {
        synchronized (q) {
            TraceState cur = q.trace;
            if (cur != null && !tracerAlive(q, cur)) cur = null;
            int now = cur == null ? 0 : cur.flags();
            if (on) {
                if (cur != null && !tracer.equals(cur.tracer())) return false;
                now |= flags;
            } else {
                now &= ~flags;
            }
            q.trace = now == 0 ? null : new TraceState(now, on ? tracer : cur.tracer());
            return true;
        }
    }

    private static void setNew(ErlProcess p, boolean on, int flags, Term tracer) {
        TraceState cur = p.vm.traceNew;
        int now = cur == null ? 0 : cur.flags();
        now = on ? now | flags : now & ~flags;
        p.vm.traceNew = now == 0 ? null : new TraceState(now, on || cur == null ? tracer : cur.tracer());
    }

    private static boolean tracerAlive(ErlProcess q, TraceState ts) { return Tracing.tracerAlive(q, ts); }

    private static Term traceInfo(ErlProcess p, Term what, Term item) {
        TraceState ts;
        if (what instanceof EPid pid) {
            if (pid.node != p.vm.nodeName) throw ErlangException.badarg();
            if (item != FLAGS && item != TRACER) throw ErlangException.badarg();
            ErlProcess q = p.vm.resolve(pid);
            if (q == null || !q.isAlive()) return EAtom.UNDEFINED;
            ts = q.trace;
            if (ts != null && !tracerAlive(q, ts)) { Tracing.stop(q, ts); ts = null; }
        } else if (what instanceof EPort) {
            if (item != FLAGS && item != TRACER) throw ErlangException.badarg();
            ts = null;
        } else if (what == NEW || what == NEW_PROCESSES || what == NEW_PORTS) {
            if (item != FLAGS && item != TRACER) throw ErlangException.badarg();
            ts = what == NEW_PORTS ? null : p.vm.traceNew;
        } else if (what == EAtom.of("on_load")) {
            return CallTraceInfo.onLoad(p.vm.traceOnLoad instanceof OnLoadTrace ol ? ol : null, item);
        } else if (what instanceof ETuple mfa && mfa.arity() == 3) {
            return TracePatternBif.traceInfo(p, mfa, item);
        } else {
            throw badopt();
        }
        if (item == FLAGS) return ETuple.of(FLAGS, TraceFlags.toList(ts == null ? 0 : ts.flags()));
        return ETuple.of(TRACER, ts == null ? ENil.NIL : ts.tracer());
    }

    static ErlangException badopt() { return badarg("badopt"); }

    /** badarg with erts' error_info cause (erl_erts_errors explains it). */
    static ErlangException badarg(String cause) { return ErlangException.ertsBadarg(cause); }
}
