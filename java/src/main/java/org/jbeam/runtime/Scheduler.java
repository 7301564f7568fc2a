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
 * round-robin. An idle thread steals from the others before it parks; a wake-up unparks a parked
 * thread, re-checking after announcing itself asleep so no wake-up is lost.
 *
 * <p>Priorities as OTP: max and high run before normal and low; low runs once per
 * {@link #LOW_EVERY} normal picks so it never starves.
 */
public final class Scheduler {
    public static final int SLICE = 4000;
    static final int MAX = 0, HIGH = 1, NORMAL = 2, LOW = 3;
    static final int LOW_EVERY = 8;
    static final long PARK_NANOS = 50_000_000L;
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
    private volatile boolean stopping;
    /** The worker whose thread is running, for enqueue locality. */
    private final ThreadLocal<Worker> current = new ThreadLocal<>();

    private final class Worker {
        final int id;
        final Thread thread;
        @SuppressWarnings("unchecked")
        final MpmcUnboundedXaddArrayQueue<ErlProcess>[] queues = new MpmcUnboundedXaddArrayQueue[4];
        volatile boolean sleeping;
        int normalPicks;

        Worker(int id) {
            this.id = id;
            for (int i = 0; i < 4; i++) queues[i] = new MpmcUnboundedXaddArrayQueue<>(256);
            thread = Thread.ofPlatform().name("jbeam-scheduler-" + id).daemon(true).stackSize(64L << 20).unstarted(this::loop);
        }

        ErlProcess pollOwn() {
            ErlProcess p = queues[MAX].poll();
            if (p == null) p = queues[HIGH].poll();
            if (p != null) return p;
            if (++normalPicks % LOW_EVERY == 0) {
                p = queues[LOW].poll();
                if (p != null) return p;
            }
            p = queues[NORMAL].poll();
            return p != null ? p : queues[LOW].poll();
        }

        boolean hasWork() {
            for (var q : queues) if (!q.isEmpty()) return true;
            return false;
        }

        void loop() {
            current.set(this);
            Interpreter interp = new Interpreter(vm, id);
            while (!stopping) {
                ErlProcess p = pollOwn();
                if (p == null) p = steal(this);
                if (p == null) { park(this); continue; }
                runSlice(interp, p);
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

    void stop() {
        stopping = true;
        for (Worker w : workers) LockSupport.unpark(w.thread);
    }

    /** Total processes waiting in run queues (statistics(run_queue)). */
    public int runQueueLength() {
        int n = 0;
        for (Worker w : workers) for (var q : w.queues) n += q.size();
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
     * queue (locality), else round-robin; then a sleeping worker, if any, is woken so it can
     * steal. (Waking only on a backlog measured slower on a loaded machine: the woken worker keeps
     * a second thread runnable when the OS preempts the first; see ADR 0003.)
     */
    void enqueue(ErlProcess p) {
        Worker target = current.get();
        if (target == null) target = workers[Math.floorMod(roundRobin.getAndIncrement(), workers.length)];
        target.queues[priorityIndex(p.priority)].offer(p);
        if (sleepers.get() > 0) wakeOne(target);
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
                ErlProcess p = victim.queues[prio].poll();
                if (p != null) return p;
            }
        }
        return null;
    }

    private void park(Worker w) {
        w.sleeping = true;
        sleepers.incrementAndGet();
        try {
            // Re-check after announcing: an enqueue that did not see us asleep put work somewhere.
            boolean work = false;
            for (Worker o : workers) if (o.hasWork()) { work = true; break; }
            // The timeout is only a safety net: every enqueue wakes a sleeper.
            if (!work && !stopping) LockSupport.parkNanos(PARK_NANOS);
        } finally {
            sleepers.decrementAndGet();
            w.sleeping = false;
        }
    }

    private void runSlice(Interpreter interp, ErlProcess p) {
        if (!p.status.compareAndSet(ErlProcess.RUNNABLE, ErlProcess.RUNNING)) return;
        int outcome;
        try {
            outcome = interp.run(p, SLICE);
        } catch (Throwable t) {
            vm.internalError(p, t);
            outcome = Interpreter.EXITED;
        }
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
