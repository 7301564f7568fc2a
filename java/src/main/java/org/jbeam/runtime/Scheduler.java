package org.jbeam.runtime;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.jbeam.interp.Interpreter;

/**
 * Scheduler — runs processes on N OS threads (one per core by default, {@code +S N}).
 *
 * <p>This first version has one shared run queue; each thread takes a process, runs it for a
 * reduction slice (preempting at calls and back-edges), and puts it back if still runnable.
 * Per-scheduler queues with work stealing and priorities come with the concurrency work
 * (see docs/adr/0003-scheduler.md).
 */
public final class Scheduler {
    public static final int SLICE = 4000;

    private final Runtime vm;
    private final LinkedBlockingQueue<ErlProcess> runQueue = new LinkedBlockingQueue<>();
    private final Thread[] threads;
    private volatile boolean stopping;

    Scheduler(Runtime vm, int n) {
        this.vm = vm;
        threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int id = i + 1;
            threads[i] = Thread.ofPlatform().name("jbeam-scheduler-" + id).daemon(true).stackSize(64L << 20).unstarted(() -> loop(id));
        }
    }

    void start() { for (Thread t : threads) t.start(); }

    public int count() { return threads.length; }

    void enqueue(ErlProcess p) { runQueue.add(p); }

    void stop() {
        stopping = true;
        for (Thread t : threads) t.interrupt();
    }

    private void loop(int id) {
        Interpreter interp = new Interpreter(vm, id);
        while (!stopping) {
            ErlProcess p;
            try {
                p = runQueue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                if (stopping) return;
                continue;
            }
            if (p == null) continue;
            if (!p.status.compareAndSet(ErlProcess.RUNNABLE, ErlProcess.RUNNING)) continue;
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
                    runQueue.add(p);
                }
                case Interpreter.WAITING -> {
                    // Go to sleep unless a message arrived meanwhile (RUNNING_NOTIFIED).
                    if (!p.status.compareAndSet(ErlProcess.RUNNING, ErlProcess.WAITING)) {
                        p.status.set(ErlProcess.RUNNABLE);
                        runQueue.add(p);
                    }
                }
                default -> {} // exited: status already EXITED
            }
        }
    }
}
