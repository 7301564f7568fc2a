package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** erlang:process_info/1,2 for the commonly used items. */
final class ProcessInfo {
    private ProcessInfo() {}

    private static final String[] DEFAULT_ITEMS = {"current_function", "initial_call", "status", "message_queue_len",
            "links", "dictionary", "trap_exit", "error_handler", "priority", "group_leader", "total_heap_size",
            "heap_size", "stack_size", "reductions", "garbage_collection", "suspending"};


    private static ErlProcess target(Term pid) {
        if (!(pid instanceof EPid p)) throw ErlangException.badarg();
        return p.process instanceof ErlProcess q && q.isAlive() ? q : null;
    }

    static Term all(ErlProcess self, Term pid) {
        ErlProcess q = target(pid);
        if (q == null) return EAtom.UNDEFINED;
        List<Term> l = new ArrayList<>();
        if (q.registeredName != null) l.add(ETuple.of(EAtom.of("registered_name"), q.registeredName));
        for (String i : DEFAULT_ITEMS) l.add(item(self, q, EAtom.of(i)));
        return ECons.of(l);
    }

    static Term items(ErlProcess self, Term pid, Term what) {
        ErlProcess q = target(pid);
        if (what instanceof EAtom a) {
            if (q == null) return EAtom.UNDEFINED;
            if (a.name.equals("registered_name") && q.registeredName == null) return ENil.NIL;
            return item(self, q, a);
        }
        Term[] is = ECons.toArray(what);
        if (is == null) throw ErlangException.badarg();
        if (q == null) return EAtom.UNDEFINED;
        List<Term> l = new ArrayList<>();
        for (Term i : is) {
            if (!(i instanceof EAtom a)) throw ErlangException.badarg();
            if (a.name.equals("registered_name") && q.registeredName == null) l.add(ETuple.of(a, ENil.NIL));
            else l.add(item(self, q, a));
        }
        return ECons.of(l);
    }

    /**
     * Nominal sizes of a process (words of heap, bytes of memory): jbeam's processes have no heaps
     * of their own, so these are a fresh erts process's (also in system_info(procs), SystemDump).
     */
    static final int NOMINAL_HEAP_WORDS = 233, NOMINAL_MEMORY = 2_800;

    private static Term item(ErlProcess self, ErlProcess q, EAtom a) {
        Term v = switch (a.name) {
            case "registered_name" -> q.registeredName;
            case "current_function" -> q == self && q.interpreter != null && q.interpreter.currentFunction() != null
                    ? q.interpreter.currentFunction()
                    : q.savedFunction();
            case "initial_call" -> q.initialCall;
            case "status" -> EAtom.of(q == self ? "running" : q.suspended() ? "suspended"
                    : q.status() == ErlProcess.WAITING ? "waiting" : "runnable");
            case "message_queue_len" -> ESmall.of(q.messageQueueLen());
            // Another process's queue is read without stopping it: exact while it waits or is
            // suspended, approximate while it runs (ErlProcess.queuedMessages).
            case "messages" -> ECons.of(q.queuedMessages());
            case "links" -> {
                ArrayList<Term> ls;
                synchronized (q) { ls = new ArrayList<Term>(q.links); }
                ls.addAll(q.vm.ports.linkedTo(q.pid));
                yield ECons.of(ls);
            }
            case "monitors" -> {
                List<Term> l = new ArrayList<>();
                // By name: {Name, Node} (as given); by pid: the pid. Ports show as {port, _}.
                for (ErlProcess.Monitor m : q.monitors.values())
                    l.add(ETuple.of(m.target() instanceof EPort ? EAtom.of("port") : EAtom.PROCESS,
                            m.target() == null || m.targetName() instanceof ETuple ? m.targetName() : m.target()));
                yield ECons.of(l);
            }
            case "monitored_by" -> {
                List<Term> l = new ArrayList<>();
                synchronized (q) { for (ErlProcess.Monitor m : q.monitoredBy.values()) l.add(m.watcher()); }
                yield ECons.of(l);
            }
            case "dictionary" -> {
                List<Term> l = new ArrayList<>();
                if (q.dictionary != null) for (var e : q.dictionary.entrySet()) l.add(ETuple.of(e.getKey(), e.getValue()));
                yield ECons.of(l);
            }
            case "trap_exit" -> EAtom.of(q.trapExit);
            case "error_handler" -> q.errorHandler;
            case "priority" -> q.priority;
            case "group_leader" -> q.groupLeader;
            case "total_heap_size", "heap_size" -> ESmall.of(NOMINAL_HEAP_WORDS);
            case "stack_size" -> ESmall.of(Math.max(q.sp, 1));
            // The caller's own count includes the slice it is in (erts adds the reductions of the
            // running slice too); other processes' counts are as of their last slice.
            case "reductions" -> ESmall.of(q == self && q.interpreter != null ? q.interpreter.reductionsSoFar() : q.reductionsDone);
            case "memory" -> ESmall.of(NOMINAL_MEMORY);
            case "garbage_collection" -> ECons.of(ETuple.of(EAtom.of("max_heap_size"), q.gc.maxHeapSizeTerm()),
                    ETuple.of(EAtom.of("min_bin_vheap_size"), ESmall.of(q.gc.minBinVheapSize)),
                    ETuple.of(EAtom.of("min_heap_size"), ESmall.of(q.gc.minHeapSize)),
                    ETuple.of(EAtom.of("fullsweep_after"), ESmall.of(q.gc.fullsweepAfter)),
                    ETuple.of(EAtom.of("minor_gcs"), ESmall.ZERO));
            // Nominal: jbeam's processes have no heaps of their own (the JVM's heap holds all terms),
            // so these are the figures of a fresh erts process with the same settings.
            case "garbage_collection_info" -> gcInfo(q);
            case "min_heap_size" -> ESmall.of(q.gc.minHeapSize);
            case "min_bin_vheap_size" -> ESmall.of(q.gc.minBinVheapSize);
            case "fullsweep_after" -> ESmall.of(q.gc.fullsweepAfter);
            case "max_heap_size" -> q.gc.maxHeapSizeTerm();
            case "parent" -> q.parent != null ? q.parent : EAtom.UNDEFINED;
            // Active catch and try blocks (the interpreter's count; read racily for another process).
            case "catchlevel" -> ESmall.of(q.catches);
            case "current_location" -> currentLocation(self, q);
            case "backtrace" -> Backtrace.of(self, q);
            case "trace" -> { var ts = q.trace; yield ESmall.of(ts == null ? 0 : org.jbeam.trace.TraceFlags.ertsWord(ts.flags())); }
            // Read from another process while q runs: the token it had at some recent moment.
            case "sequential_trace_token" -> { ETuple t = q.seqToken; yield t == null ? ENil.NIL : t; }
            // Call saving is not implemented (and cannot be switched on): erts' answer without it.
            case "last_calls" -> EAtom.FALSE;
            // Off-heap binaries and magic references: the JVM's collector owns these, so no process
            // holds a list of them.
            case "binary", "magic_ref" -> ENil.NIL;
            case "suspending" -> suspending(q);
            case "message_queue_data" -> q.messageQueueData;
            case "current_stacktrace" -> q == self && q.interpreter != null ? q.interpreter.currentStacktrace()
                    : q != self ? org.jbeam.interp.Exceptions.stacktraceOf(q) : ENil.NIL;
            default -> throw ErlangException.badarg();
        };
        return ETuple.of(a, v);
    }

    /** {Suspendee, ActiveSuspendCount, OutstandingSuspendCount} for each process q has suspended. */
    private static Term suspending(ErlProcess q) {
        List<EPid> pids;
        synchronized (q) { pids = q.suspending == null ? List.of() : new ArrayList<>(q.suspending); }
        List<Term> l = new ArrayList<>();
        for (EPid pid : pids) {
            if (!(pid.process instanceof ErlProcess s)) continue;
            Integer n;
            synchronized (s) { n = s.suspendedBy == null ? null : s.suspendedBy.get(q.pid); }
            if (n != null) l.add(ETuple.of(pid, ESmall.of(n), ESmall.ZERO));
        }
        return ECons.of(l);
    }

    private static Term gcInfo(ErlProcess q) {
        long heap = q.gc.minHeapSize, bin = q.gc.minBinVheapSize;
        String[] keys = {"old_heap_block_size", "heap_block_size", "mbuf_size", "recent_size", "stack_size",
                "old_heap_size", "heap_size", "bin_vheap_size", "bin_vheap_block_size", "bin_old_vheap_size",
                "bin_old_vheap_block_size"};
        long[] vals = {0, heap, 0, 0, Math.max(q.sp, 1), 0, 0, 0, bin, 0, bin};
        Term[] l = new Term[keys.length];
        for (int i = 0; i < l.length; i++) l[i] = ETuple.of(EAtom.of(keys[i]), ESmall.of(vals[i]));
        return ECons.of(l);
    }

    /** {M, F, A, Location}: the first frame of the process's current stack trace. */
    private static Term currentLocation(ErlProcess self, ErlProcess q) {
        Term st = item(self, q, EAtom.of("current_stacktrace"));
        if (st instanceof ETuple t && t.get(1) instanceof ECons c && c.head instanceof ETuple f && f.arity() == 4) return f;
        Term cf = item(self, q, EAtom.of("current_function")) instanceof ETuple t ? t.get(1) : null;
        if (cf instanceof ETuple mfa && mfa.arity() == 3) return ETuple.of(mfa.get(0), mfa.get(1), mfa.get(2), ENil.NIL);
        return ETuple.of(EAtom.UNDEFINED, EAtom.UNDEFINED, ESmall.ZERO, ENil.NIL);
    }
}
