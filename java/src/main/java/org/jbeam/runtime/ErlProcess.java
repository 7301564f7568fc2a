package org.jbeam.runtime;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.code.BeamModule;
import org.jbeam.term.*;

/**
 * An Erlang process: pid, Erlang stack (y registers and continuation pointers in one growable
 * array), saved x registers while descheduled, mailbox, links, monitors and flags.
 *
 * <p>Status changes are atomic so that a wake-up enqueues a process exactly once: a sender that
 * finds the process WAITING moves it to RUNNABLE and schedules it; one that finds it RUNNING marks
 * it RUNNING_NOTIFIED, which makes the process re-check its mailbox instead of going to sleep.
 */
public final class ErlProcess {
    public static final int WAITING = 0, RUNNABLE = 1, RUNNING = 2, RUNNING_NOTIFIED = 3, EXITED = 4;

    public final EPid pid;
    public final Runtime vm;
    final AtomicInteger status = new AtomicInteger(RUNNABLE);

    // --- execution state (owned by the scheduler thread running the process) ---
    public BeamModule module;
    public int pc;
    public Term[] stk = new Term[8];
    public int sp;
    /** Saved x registers (live ones) while not running. */
    public Term[] xsave = NO_REGS;
    private static final Term[] NO_REGS = new Term[0];
    public int live;
    public int catches;
    /** Set when a wait_timeout's timer fired. */
    public volatile boolean timedOut;
    /** A wait_timeout with 'infinity' is in progress (its operand need not stay live). */
    public boolean waitingForever;
    public Object timer;
    public EAtom priority = Scheduler.A_NORMAL;
    /** The initial call, consumed by the start trampoline. */
    public org.jbeam.code.Export startExport;
    /** Set by erlang:hibernate/3: while it waits at the system start, process_info shows {erlang,hibernate,3}. */
    public volatile boolean hibernated;
    /** process_flag values jbeam keeps only to report back (one JVM heap; no call saving). */
    public EAtom messageQueueData = EAtom.of("on_heap");
    /** GC settings read back by process_info (spawn_opt, process_flag); shared default until changed. */
    public GcOptions gc = GcOptions.DEFAULT;
    /** The spawning process (process_info parent); null for processes started by the VM or from Java. */
    public EPid parent;
    public boolean sensitive;
    public volatile int saveCalls;
    /** process_flag(error_handler, M): the module whose undefined_function/3 handles calls to undefined functions. */
    public EAtom errorHandler = DEFAULT_ERROR_HANDLER;
    public static final EAtom DEFAULT_ERROR_HANDLER = EAtom.of("error_handler");
    /** erlang:suspend_process: suspender → count; null when not suspended (guarded by this). */
    public Map<EPid, Integer> suspendedBy;
    /** Processes this one has suspended (guarded by this process's lock); released when it exits. */
    public Set<EPid> suspending;
    public boolean suspended() { synchronized (this) { return distSuspended || suspendedBy != null; } }
    /**
     * A distribution connection this process's last send left over its busy limit (set by the
     * send, read by the send instruction or BIF right after it, which then suspends the process or,
     * for a nosuspend send, clears it). Plain field: only the process's own thread touches it.
     */
    public Object busyDist;
    /** Suspended on a busy distribution connection until its queue drains (org.jbeam.dist.DistBusy). */
    public volatile boolean distSuspended;
    public EFun startFun;

    // --- mailbox: signals and messages from other threads, then a private list ---
    final Inbox inbox = new Inbox();
    public final Mailbox mailbox = new Mailbox();

    // --- process state visible to BIFs ---
    public Map<Term, Term> dictionary;
    public final Set<EPid> links = new HashSet<>();
    public final Map<ERef, Monitor> monitors = new HashMap<>();   // monitors this process holds
    public final Map<ERef, Monitor> monitoredBy = new HashMap<>(); // monitors on this process
    public boolean trapExit;
    public EPid groupLeader;
    public EAtom registeredName;
    public Term initialCall = ENil.NIL;

    private static final Term HIBERNATE = ETuple.of(EAtom.of("erlang"), EAtom.of("hibernate"), ESmall.of(3));

    /**
     * {M, F, Arity} of the function this process resumes in, from its saved state (so not while it
     * runs): process_info(P, current_function) of another process, and the running trace events.
     * A process that has not run yet is in its initial call.
     */
    public Term savedFunction() {
        BeamModule m = module;
        int at = pc;
        if (hibernated && m == ProcessTable.SYSTEM && at == ProcessTable.PC_START) return HIBERNATE;
        org.jbeam.code.FuncInfo f = m == null ? null : m.functionAt(at);
        return f != null ? ETuple.of(m.name, f.name, ESmall.of(f.arity)) : initialCall;
    }
    public Term exitReason;
    /** Last exception (class, reason, stacktrace) for build_stacktrace/raise. */
    public ErlangException lastException;
    public long reductionsDone;
    /** The native call this process is suspended in (see {@link AsyncCall}), or null. */
    public volatile AsyncCall pendingCall;
    private long nextCallId;
    /** The interpreter running this process right now, or null when it is not running. */
    public volatile org.jbeam.interp.Interpreter interpreter;
    /** erlang:trace/3 flags and tracer, or null when the process is not traced (org.jbeam.trace). */
    public volatile org.jbeam.trace.TraceState trace;
    /** call_time tracing's clock (trace.CallTime.Clock), made when the process first enters a call_time-traced function. */
    public org.jbeam.trace.CallTime.Clock callClock;

    public ErlProcess(Runtime vm, EPid pid) {
        this.vm = vm;
        this.pid = pid;
        pid.process = this;
    }

    public int status() { return status.get(); }

    /**
     * Starts a suspended native call; called by the native on the process's own scheduler thread,
     * which then returns {@code Trap.await(call)}.
     */
    public AsyncCall beginAsync() {
        if (pendingCall != null) throw new IllegalStateException("already suspended in call " + pendingCall.id);
        AsyncCall c = new AsyncCall(this, ++nextCallId);
        pendingCall = c;
        return c;
    }
    public boolean isAlive() { return status.get() != EXITED; }

    /**
     * Puts monitor {@code m} among those watching this process if it is still alive, under the lock
     * its exit takes to collect them (so the monitor either gets the 'DOWN' or is refused); false if
     * the process has exited.
     */
    public synchronized boolean watchedBy(Monitor m) {
        if (!isAlive()) return false;
        monitoredBy.put(m.ref(), m);
        return true;
    }

    /** Drops monitor {@code ref} from those watching this process; whether it was there. */
    public synchronized boolean unwatch(ERef ref) { return monitoredBy.remove(ref) != null; }

    /** Enqueue a message or signal from any thread and wake the process. */
    public void deliver(Object msgOrSignal) {
        if (status.get() == EXITED) return;
        inbox.offer(msgOrSignal);
        wake();
    }

    /** Enqueue a message carrying sequential trace token {@code token} (ADR 0070) and wake the process. */
    public void deliver(Term msg, ETuple token) {
        if (status.get() == EXITED) return;
        inbox.offer(msg, token);
        wake();
    }

    /**
     * Sequential tracing (org.jbeam.trace.SeqTrace): the process's token (null: none), its clock
     * and the serial it last received. Owned by the process (reset_seq_trace aside).
     */
    public ETuple seqToken;
    public long seqClock, seqLastCnt;

    /** Make the process runnable if it waits; mark it notified if it runs. */
    public void wake() {
        while (true) {
            int s = status.get();
            switch (s) {
                case WAITING -> { if (status.compareAndSet(WAITING, RUNNABLE)) { vm.scheduler.enqueue(this); return; } }
                case RUNNING -> { if (status.compareAndSet(RUNNING, RUNNING_NOTIFIED)) return; }
                default -> { return; }
            }
        }
    }

    /** Stack growth: y registers index from the top, so growing keeps indexes valid. */
    public void ensureStack(int extra) {
        if (sp + extra > stk.length) {
            int n = stk.length * 2;
            while (n < sp + extra) n *= 2;
            stk = java.util.Arrays.copyOf(stk, n);
        }
    }

    /*
     * Receive markers bound to references (recv_marker_bind), kept as erts keeps them (ADR 0047):
     * a small fixed array, made on a process's first bind; a bind with every slot taken reuses
     * the oldest binding. A marker only lets a receive skip messages older than its reference,
     * so a recycled one costs at most a scan from the start of the queue, never a wrong match.
     * Before (ADR 0043), one slot served a call and a map the rest: a receive left between its
     * bind and its clear (an exception in between, e.g. a send to an unregistered name) kept
     * the slot, every later call of that process went to the map, and the map kept one entry
     * per such receive for the life of the process.
     */
    static final int MARKERS = 8;
    private Term[] markerRefs;
    private Object[] markerPos;
    /** Bind order per slot (the oldest is recycled first), and the slot of the latest bind. */
    private int[] markerAge;
    private int markerClock, markerLast;

    public void bindMarker(Term ref, Object pos) {
        Term[] refs = markerRefs;
        if (refs == null) {
            markerRefs = refs = new Term[MARKERS];
            markerPos = new Object[MARKERS];
            markerAge = new int[MARKERS];
        }
        // A call binds, uses and clears its marker: the slot the last one used is free again,
        // without a loop. A loop here, inlined into compiled gen:do_call, was a "profile_predicate"
        // trap there (JFR) whenever the slots were used in an order the profile had not seen.
        int slot = refs[markerLast] == null ? markerLast : freeMarker(refs);
        refs[slot] = ref;
        markerPos[slot] = pos;
        markerAge[slot] = ++markerClock;
        markerLast = slot;
    }

    /**
     * A free slot, else the one bound longest ago (recycled). A reference bound twice (never
     * done by compiled code: a marker is bound to a fresh reference) gets two slots, as in erts;
     * lookups find the latest bind first.
     */
    private int freeMarker(Term[] refs) {
        for (int i = 0; i < MARKERS; i++) if (refs[i] == null) return i;
        return oldestMarker();
    }

    /** The slot bound longest ago (bind order; the clock's wrap-around only misorders one round). */
    private int oldestMarker() {
        int[] age = markerAge;
        int best = 0;
        for (int i = 1; i < MARKERS; i++) if (age[i] - age[best] < 0) best = i;
        return best;
    }

    /** The slot bound to {@code ref}, or -1: the latest bind first (a call uses its own marker). */
    private int markerSlot(Term ref) {
        Term[] refs = markerRefs;
        if (refs == null) return -1;
        if (refs[markerLast] == ref) return markerLast;
        return scanMarkers(refs, ref);
    }

    private int scanMarkers(Term[] refs, Term ref) {
        for (int i = 0; i < MARKERS; i++) {
            Term r = refs[i];
            if (r != null && sameRef(r, ref)) return i;
        }
        return -1;
    }

    /** The mailbox position bound to {@code ref}, or null. */
    public Object marker(Term ref) {
        int i = markerSlot(ref);
        return i < 0 ? null : markerPos[i];
    }

    public void clearMarker(Term ref) {
        int i = markerSlot(ref);
        if (i < 0) return;
        markerRefs[i] = null;
        markerPos[i] = null;
    }

    /**
     * Equality of marker keys (references) without a virtual call whose type profile C2 would
     * speculate on. Not static, nor is scanMarkers: the training below runs inside this class's
     * initialiser, and C2 code of a static method compiled then had a class-initialisation
     * check, a trap ("initialized", JFR) on the first call after the initialiser finished.
     */
    private boolean sameRef(Term a, Term b) {
        return a == b || a instanceof ERef r && r.equals(b);
    }

    /*
     * The marker methods run in the receive path of every compiled function (Receive's helpers,
     * inlined into it). C2 compiles a branch its profile never saw taken as a trap: with a
     * profile from gen_server calls only, the first bind with another marker still bound (a
     * receive left by an exception or a timeout) threw the compiled caller away (JFR
     * "unstable_if", ADR 0043). A profile belongs to the method, also where it is inlined, so
     * exercising every outcome here once per JVM (a few milliseconds) keeps them out of every
     * later compile, as Branches does for the interpreter loop (ADR 0037): free slots, the
     * latest bind, a scan, equal references that are not identical, a non-reference, a full
     * array recycled, and a process's first bind (the arrays made). Each outcome recurs
     * throughout the loop: the JVM records a profile only from some hundred calls on.
     */
    static {
        ErlProcess p = new ErlProcess(null, new EPid(EAtom.NONODE, 0, 0, 0));
        Term[] refs = {new ERef(EAtom.NONODE, 0, new int[] {1, 2, 3}), new ERef(EAtom.NONODE, 0, new int[] {1, 2, 3}),
                new ERef(EAtom.NONODE, 0, new int[] {4, 5, 6}), EAtom.NONODE};
        Term[] many = new Term[MARKERS + 2];
        for (int i = 0; i < many.length; i++) many[i] = new ERef(EAtom.NONODE, 0, new int[] {7, 8, i});
        Object pos = new Object();
        int sink = 0;
        for (int i = 0; i < 30_000; i++) {
            Term a = refs[i % refs.length], b = refs[(i / refs.length) % refs.length];
            p.bindMarker(a, pos);
            if ((i & 1) == 0) p.bindMarker(b, pos);
            if (p.marker(b) != null) sink++;
            if (p.marker(a) != null) sink++;
            p.clearMarker(b);
            p.clearMarker(a);
            if (p.marker(a) == null) sink++;
            if (i % 5 == 0) for (Term r : many) p.bindMarker(r, pos); // full: the oldest recycled
            if (i % 5 == 2) for (Term r : many) p.clearMarker(r);
            if (i % 3 == 0) p.markerRefs = null; // a process's first bind, throughout the run
        }
        if (sink == 42) System.out.print("");
    }

    /** Incremented whenever a receive timer is started or cancelled; stale timeouts are ignored. */
    public int timerGen;

    /**
     * Queued messages, including those sent but not yet taken from the inbox and, for a process
     * trapping exits, the exit signals there that will become messages (see Inbox).
     */
    public int messageQueueLen() {
        int n = mailbox.size() + inbox.pendingMessages(); // 'DOWN's included (Inbox.offer)
        return trapExit ? n + inbox.pendingSignalMessages(this::trappedExitMessage) : n;
    }

    /** Queued messages, oldest first, including those not yet taken from the inbox (see Inbox). */
    public java.util.List<Term> queuedMessages() {
        status.get(); // see Inbox.pendingMessagesInto
        java.util.List<Term> l = new java.util.ArrayList<>(mailbox.messages());
        inbox.pendingMessagesInto(l, this::signalMessage);
        return l;
    }

    /** The message a signal still in the inbox will be: a 'DOWN', or an exit this process traps. */
    private Term signalMessage(Object signal) {
        if (signal instanceof Signals.Down d) return d.message();
        return trapExit ? trappedExitMessage(signal) : null;
    }

    private Term trappedExitMessage(Object signal) {
        return signal instanceof Signals.Exit e ? Signals.trappedExitMessage(this, e) : null;
    }

    public Map<Term, Term> dict() {
        if (dictionary == null) dictionary = new HashMap<>();
        return dictionary;
    }

    /** demonitor(Ref, [flush]): drop a 'DOWN' message for Ref already received or in flight. */
    public void flushDown(ERef ref) {
        Signals.drain(this);
        // Any {_, Ref, _, _, _}, as OTP: a monitor made with {tag, T} delivers {T, Ref, ...}.
        mailbox.removeIf(m -> m instanceof ETuple t && t.arity() == 5 && t.get(1).equals(ref));
    }

    @Override public String toString() { return "Process" + pid; }

    /** A monitor: who watches whom. */
    public record Monitor(ERef ref, EPid watcher, Term target, Term targetName, boolean alias, Term tag) {
        public Monitor(ERef ref, EPid watcher, Term target, Term targetName, boolean alias) {
            this(ref, watcher, target, targetName, alias, EAtom.DOWN);
        }
    }
}

