package org.jbeam.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.jbeam.interp.Interpreter;
import org.jbeam.term.EAtom;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

/**
 * Scheduler — fairness across every core. N OS threads ({@code +S N}), each with its own run
 * queues per priority (max, high, normal, low; JCTools lock-free queues). A process made runnable
 * by a scheduler thread goes to that thread's queue (locality); one woken from elsewhere goes
 * round-robin. An idle thread steals from the others (not the one process a busy thread will run
 * next), spins briefly, then parks, re-checking after announcing itself asleep so no wake-up is
 * lost. A wake-up by a scheduler thread unparks no one at once: at the end of every slice a worker
 * whose queue holds a backlog wakes a sleeper (ADR 0003, ADR 0019).
 *
 * <p>Priorities as OTP: max and high run before normal and low; low runs once per
 * {@link #LOW_EVERY} normal picks so it never starves.
 */
public final class Scheduler {
    public static final int SLICE = 4000;
    static final int MAX = 0, HIGH = 1, NORMAL = 2, LOW = 3;
    static final int LOW_EVERY = 8;
    static final long PARK_NANOS = 50_000_000L;
    /** How long an idle worker polls for work before it parks by default (see ADR 0003): erl's +sbwt medium. */
    static final long SPIN_NANOS = Long.getLong("jbeam.sched.spinNanos", 10_000L);
    /**
     * This node's spin before parking: {@link #SPIN_NANOS} unless erl's {@code +sbwt} set it
     * ({@link #busyWaitNanos}). RabbitMQ starts its node with {@code +sbwt none}: erts then parks an
     * idle scheduler at once, and its broker spent a tenth of its CPU in this spin (ADR 0057).
     */
    private volatile long spinNanos = SPIN_NANOS;
    /**
     * Take even the one process a busy worker will run next (the default again: with the stricter rule
     * inet_tcp_lazy saw a freshly spawned process not run for 50 ms; see ADR 0003).
     */
    static final boolean STEAL_SINGLE = Boolean.parseBoolean(System.getProperty("jbeam.sched.stealSingle", "true"));
    /**
     * Whether every slice end (not only one that made a process runnable) wakes a sleeper when this
     * worker's queue holds a backlog: messages to processes already queued enqueue nothing, so a
     * worker could otherwise work through hundreds of queued processes alone while another slept
     * (bench_big; see ADR 0019).
     */
    static final boolean SHARE_BACKLOG = Boolean.parseBoolean(System.getProperty("jbeam.sched.shareBacklog", "true"));
    /**
     * Chunks each run queue keeps for reuse. JCTools' default (2) makes a producer that enters a
     * reused chunk spin until the consumer of that slot's previous occupant has cleared it; with
     * threads descheduled by the OS that spin showed up as 6% of all samples in bench_timers. Without
     * pooling a full chunk (256 slots) is dropped to the GC instead (see ADR 0019).
     */
    static final int POOLED_CHUNKS = Integer.getInteger("jbeam.sched.pooledChunks", 0);
    /** Whether a worker defers waking a sleeper until its slice ends (see {@link #settleWake}). */
    static final boolean DEFER_WAKE = Boolean.parseBoolean(System.getProperty("jbeam.sched.deferWake", "true"));
    private static final java.lang.invoke.VarHandle SLEEPING;
    static {
        try {
            SLEEPING = java.lang.invoke.MethodHandles.lookup().findVarHandle(Worker.class, "sleeping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Runtime vm;
    private final Worker[] workers;
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final AtomicInteger sleepers = new AtomicInteger();
    /** Workers parked in the kernel, over every VM of this JVM: the socket ring coalesces its waits only while none is (ADR 0039). */
    private static final AtomicInteger PARKED = new AtomicInteger();

    /** How many scheduler threads (of any VM in this JVM) are parked now. */
    public static int parkedWorkers() { return PARKED.get(); }
    private volatile boolean stopping;
    /** The worker whose thread is running, for enqueue locality. */
    private final ThreadLocal<Worker> current = new ThreadLocal<>();

    private final class Worker {
        final int id;
        final Thread thread;
        @SuppressWarnings("unchecked")
        final MpmcUnboundedXaddArrayQueue<ErlProcess>[] queues = new MpmcUnboundedXaddArrayQueue[4];
        volatile boolean sleeping;
        /**
         * Processes in the max, high and low queues (raised before the offer, lowered after a
         * successful poll, so never below the truth): while it is 0, as nearly always, a pick polls
         * the normal queue alone instead of three empty queues first (ADR 0028).
         */
        final AtomicInteger special = new AtomicInteger();
        /** Running a slice (its queued process will be run by it soon; see {@link #stealable}). */
        volatile boolean running;
        /**
         * Long receive timers started on this thread and not yet handed to the wheel, with the
         * time the oldest was started (see {@link #deferTimer}).
         */
        final java.util.ArrayList<TimerWheel.Timer> deferred = new java.util.ArrayList<>();
        long deferredSince;
        /** A process this thread made runnable while a worker slept; see {@link #settleWake}. */
        boolean wakePending;
        int normalPicks;
        /** Slices run and reductions done on this thread (statistics(context_switches | reductions)); written by it alone. */
        long slices, reductions;

        Worker(int id) {
            this.id = id;
            for (int i = 0; i < 4; i++) queues[i] = new MpmcUnboundedXaddArrayQueue<>(256, POOLED_CHUNKS);
            thread = Thread.ofPlatform().name("jbeam-scheduler-" + id).daemon(true).stackSize(64L << 20).unstarted(this::loop);
        }

        ErlProcess pollOwn() {
            if (special.get() == 0) return queues[NORMAL].poll();
            ErlProcess p = pollSpecial(MAX);
            if (p == null) p = pollSpecial(HIGH);
            if (p != null) return p;
            if (++normalPicks % LOW_EVERY == 0) {
                p = pollSpecial(LOW);
                if (p != null) return p;
            }
            p = queues[NORMAL].poll();
            return p != null ? p : pollSpecial(LOW);
        }

        ErlProcess poll(int prio) { return prio == NORMAL ? queues[NORMAL].poll() : pollSpecial(prio); }

        private ErlProcess pollSpecial(int prio) {
            ErlProcess p = queues[prio].poll();
            if (p != null) special.decrementAndGet();
            return p;
        }

        void offer(int prio, ErlProcess p) {
            if (prio != NORMAL) special.incrementAndGet();
            queues[prio].offer(p);
        }

        boolean hasWork() {
            for (var q : queues) if (!q.isEmpty()) return true;
            return false;
        }

        /** More than one process queued here (one size() while only the normal queue is used: this runs after every slice). */
        boolean backlog() {
            if (special.get() == 0) return queues[NORMAL].size() > 1;
            int n = 0;
            for (var q : queues) n += q.size();
            return n > 1;
        }

        void loop() {
            current.set(this);
            Interpreter interp = new Interpreter(vm, id);
            while (!stopping) {
                ErlProcess p = pollOwn();
                if (p == null) p = steal(this);
                if (p == null && !deferred.isEmpty()) flushDeferred(this, true);
                if (p == null && spinNanos > 0) p = spin(this);
                if (p == null) { interp.idle(); park(this); continue; }
                running = true;
                long r0 = p.reductionsDone;
                if (vm.threadTimes.counting()) {
                    long t0 = System.nanoTime();
                    runSlice(interp, p);
                    vm.threadTimes.add(id - 1, System.nanoTime() - t0);
                } else {
                    runSlice(interp, p);
                }
                slices++;
                reductions += p.reductionsDone - r0;
                settleWake(this);
                running = false;
                if (!deferred.isEmpty()) flushDeferred(this, false);
            }
        }
    }

    Scheduler(Runtime vm, int n) {
        this.vm = vm;
        workers = new Worker[n];
        for (int i = 0; i < n; i++) workers[i] = new Worker(i + 1);
    }

    void start() { for (Worker w : workers) w.thread.start(); }

    public int count() { return workers.length; }

    /** Sets how long an idle worker spins before it parks (erl's {@code +sbwt}; 0: parks at once). */
    public void busyWait(long nanos) { spinNanos = Math.max(0, nanos); }

    /**
     * erl's {@code +sbwt} values in nanoseconds of spinning: medium is the default spin, each step
     * halves or doubles it (erts' own thresholds are spin-loop counts, not times); -1 for a value
     * erts rejects.
     */
    public static long busyWaitNanos(String threshold) {
        return switch (threshold) {
            case "none" -> 0;
            case "very_short" -> SPIN_NANOS / 4;
            case "short" -> SPIN_NANOS / 2;
            case "medium" -> SPIN_NANOS;
            case "long" -> SPIN_NANOS * 2;
            case "very_long" -> SPIN_NANOS * 4;
            default -> -1;
        };
    }

    /** Processes queued on scheduler {@code i} (0-based), all priorities. */
    public int queued(int i) {
        int n = 0;
        for (var q : workers[i].queues) n += q.size();
        return n;
    }

    /** Whether scheduler {@code i} (0-based) is running a slice. */
    public boolean busy(int i) { return workers[i].running; }

    void stop() {
        stopping = true;
        for (Worker w : workers) LockSupport.unpark(w.thread);
    }

    /** Total processes waiting in run queues (statistics(run_queue)). */
    /** Processes switched in since start, over all schedulers (erts' context switches). */
    public long contextSwitches() {
        long n = 0;
        for (Worker w : workers) n += w.slices;
        return n;
    }

    /** Reductions done by every process since start (those that exited included). */
    public long totalReductions() {
        long n = 0;
        for (Worker w : workers) n += w.reductions;
        return n;
    }

    public int runQueueLength() {
        int n = 0;
        for (int i = 0; i < workers.length; i++) n += queued(i);
        return n;
    }

    static final EAtom A_MAX = EAtom.of("max"), A_HIGH = EAtom.of("high"), A_NORMAL = EAtom.of("normal"), A_LOW = EAtom.of("low");

    /** Atoms are interned, so identity picks the queue (this runs on every enqueue). */
    static int priorityIndex(EAtom prio) {
        if (prio == A_NORMAL) return NORMAL;
        if (prio == A_HIGH) return HIGH;
        if (prio == A_MAX) return MAX;
        return prio == A_LOW ? LOW : NORMAL;
    }

    /**
     * Makes {@code p} (already RUNNABLE) eligible to run: on the current scheduler thread's own
     * queue (locality), else round-robin. A wake-up from outside the schedulers wakes a sleeping
     * worker at once; one from a scheduler thread is settled when its slice ends
     * ({@link #settleWake}), see ADR 0003.
     */
    void enqueue(ErlProcess p) {
        Worker self = current.get();
        Worker target = self != null ? self : outsideTarget();
        target.offer(priorityIndex(p.priority), p);
        if (sleepers.get() > 0) {
            if (self != null && DEFER_WAKE) self.wakePending = true;
            else wakeOne(target);
        }
    }

    /**
     * Where a wake-up from outside the schedulers goes: a sleeping worker's queue if there is one
     * (it is woken and runs it at once; a busy worker's single queued process is not stolen),
     * else round-robin.
     */
    private Worker outsideTarget() {
        if (sleepers.get() > 0) for (Worker w : workers) if (w.sleeping) return w;
        return workers[Math.floorMod(roundRobin.getAndIncrement(), workers.length)];
    }

    /**
     * After a slice: a process made runnable during it waits in this worker's queue. If it is
     * the only one, this thread runs it next and waking a sleeper would only hand it to another
     * thread (a futex wake, then the reply wakes us back: the call/reply ping-pong of
     * gen_server:call). With more queued, a sleeper is woken to steal. Deciding here rather than
     * at the send keeps the sender's thread from being the only runnable one while the sender
     * computes on: the latency added is at most the rest of the sender's slice. A backlog is shared
     * after any slice, not only one that enqueued (ADR 0019).
     */
    private void settleWake(Worker w) {
        boolean pending = w.wakePending;
        w.wakePending = false;
        if (!pending && !SHARE_BACKLOG) return;
        if (sleepers.get() > 0 && w.backlog()) wakeOne(w);
    }

    /** Receive timers at least this long are handed to the wheel late (see {@link #deferTimer}). */
    static final long DEFER_MIN_MS = Long.getLong("jbeam.sched.deferTimerMs", 50);
    /** How long a deferred timer may wait before it goes to the wheel. */
    private static final long DEFER_NANOS = 1_000_000L;

    /**
     * Starts a long receive timer (≥ {@link #DEFER_MIN_MS}). On a scheduler thread it is only
     * noted, and handed to the wheel within about a millisecond (after a slice) or before the
     * thread goes idle; a timer cancelled before that — the reply of a gen_server:call, with its
     * default 5 s timeout, arrives in microseconds — never reaches the wheel: no shared push, no
     * work on the wheel thread, and no cancelled timer kept alive for seconds in a bucket (ADR
     * 0028). Its deadline was fixed at the start, so arming it late cannot make it fire late,
     * unless a slice of this thread runs longer than the timeout (erts' per-scheduler timers
     * share that).
     */
    void deferTimer(TimerWheel.Timer t) {
        Worker w = current.get();
        if (w == null) { vm.timers.start(t); return; }
        if (w.deferred.isEmpty()) w.deferredSince = System.nanoTime();
        w.deferred.add(t);
        if (w.deferred.size() >= 256) flushDeferred(w, true);
    }

    /** Hands a worker's deferred timers still pending to the wheel: all, or once the oldest is old enough. */
    private void flushDeferred(Worker w, boolean all) {
        var d = w.deferred;
        if (!all && System.nanoTime() - w.deferredSince < DEFER_NANOS) {
            // Drop the cancelled ones from the end (the newest are cancelled first in call/reply).
            while (!d.isEmpty() && !d.getLast().isPending()) d.removeLast();
            return;
        }
        for (TimerWheel.Timer t : d) if (t.isPending()) vm.timers.start(t);
        d.clear();
    }

    /** Polls for work up to SPIN_NANOS before parking, so a wake-up arriving soon needs no unpark. */
    private ErlProcess spin(Worker w) {
        long deadline = System.nanoTime() + spinNanos;
        do {
            Thread.onSpinWait();
            ErlProcess p = w.pollOwn();
            if (p == null) p = steal(w);
            if (p != null) return p;
        } while (System.nanoTime() < deadline && !stopping);
        return null;
    }

    /** Unparks one sleeping worker (the preferred one if it sleeps); each sleeper is unparked once. */
    private void wakeOne(Worker preferred) {
        if (preferred != null && preferred.sleeping && claimWake(preferred)) return;
        for (Worker w : workers) if (w.sleeping && claimWake(w)) return;
    }

    private static boolean claimWake(Worker w) {
        if (!SLEEPING.compareAndSet(w, true, false)) return false;
        LockSupport.unpark(w.thread);
        return true;
    }

    private ErlProcess steal(Worker self) {
        for (int prio = 0; prio < 4; prio++) {
            for (int k = 1; k < workers.length; k++) {
                Worker victim = workers[(self.id - 1 + k) % workers.length];
                if (!stealable(victim, victim.queues[prio])) continue;
                ErlProcess p = victim.poll(prio);
                if (p != null) return p;
            }
        }
        return null;
    }

    /**
     * A busy worker keeps the one process waiting in a queue: it runs it when its current slice
     * ends, and taking it would move a call/reply partner to another thread (cache misses, and
     * the reply then wakes it back across). A backlog, or any work of an idle worker, is taken.
     */
    private static boolean stealable(Worker victim, MpmcUnboundedXaddArrayQueue<ErlProcess> q) {
        if (STEAL_SINGLE || !victim.running) return !q.isEmpty();
        return q.size() > 1;
    }

    private boolean anyStealable(Worker self) {
        if (self.hasWork()) return true;
        for (Worker o : workers) {
            if (o == self) continue;
            for (var q : o.queues) if (stealable(o, q)) return true;
        }
        return false;
    }

    private void park(Worker w) {
        w.sleeping = true;
        sleepers.incrementAndGet();
        try {
            // Re-check after announcing: an enqueue that did not see us asleep put work somewhere.
            boolean work = anyStealable(w);
            // The timeout is only a safety net: every enqueue wakes a sleeper.
            if (!work && !stopping) {
                PARKED.incrementAndGet();
                LockSupport.parkNanos(PARK_NANOS);
                PARKED.decrementAndGet();
            }
        } finally {
            sleepers.decrementAndGet();
            w.sleeping = false;
        }
    }

    private void runSlice(Interpreter interp, ErlProcess p) {
        if (!p.status.compareAndSet(ErlProcess.RUNNABLE, ErlProcess.RUNNING)) return;
        int outcome;
        org.jbeam.trace.CallTime.Clock clock = p.callClock; // call_time stops while scheduled out
        if (clock != null) clock.in();
        if (p.trace != null) org.jbeam.trace.Tracing.scheduledIn(p); // running: in
        SystemMonitorEvents.Settings mon = vm.systemMonitor;     // long_schedule: time the slice
        long t0 = 0;
        org.jbeam.code.BeamModule inModule = null;
        int inPc = 0;
        if (mon != null && mon.timesSlices()) { t0 = System.nanoTime(); inModule = p.module; inPc = p.pc; }
        try {
            outcome = interp.run(p, SLICE);
        } catch (Throwable t) {
            vm.internalError(p, t);
            outcome = Interpreter.EXITED;
        }
        if ((clock = p.callClock) != null) clock.out(p.pid);
        if (p.trace != null) org.jbeam.trace.Tracing.scheduledOut(p, outcome == Interpreter.EXITED); // running: out
        if (t0 != 0) SystemMonitorEvents.sliceEnded(vm, mon, p, t0, inModule, inPc, outcome == Interpreter.EXITED);
        switch (outcome) {
            case Interpreter.YIELDED -> {
                p.status.set(ErlProcess.RUNNABLE);
                enqueue(p);
            }
            case Interpreter.WAITING -> {
                // Go to sleep unless a message arrived meanwhile (RUNNING_NOTIFIED).
                if (!p.status.compareAndSet(ErlProcess.RUNNING, ErlProcess.WAITING)) {
                    p.status.set(ErlProcess.RUNNABLE);
                    enqueue(p);
                }
            }
            default -> {} // exited: status already EXITED
        }
    }
}
