package org.jbeam.runtime;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jbeam.term.EAtom;
import org.jbeam.term.ETuple;
import org.jbeam.term.EBitString;
import org.jbeam.term.Term;

/**
 * OTP's dirty schedulers: a dirty-CPU pool (as many threads as schedulers by default, {@code +SDcpu})
 * and a dirty-IO pool (10 by default, {@code +SDio}) for natives that would hold a normal
 * scheduler too long. The calling process is suspended on an {@link AsyncCall} and resumes with
 * the job's result; normal schedulers never block on a dirty job. Threads start on first use.
 */
public final class DirtyPools {
    public enum Kind { CPU, IO }

    private final ThreadPoolExecutor cpu, io;
    /** Set by the Runtime: where jobs report their run time while it is being counted. */
    ThreadTimes times;
    private final AtomicInteger running = new AtomicInteger();

    public DirtyPools(int cpuThreads, int ioThreads) {
        this.cpu = pool("jbeam-dirty-cpu-", Math.max(1, cpuThreads));
        this.io = pool("jbeam-dirty-io-", Math.max(1, ioThreads));
    }

    private static ThreadPoolExecutor pool(String prefix, int n) {
        AtomicInteger seq = new AtomicInteger(1);
        return new ThreadPoolExecutor(n, n, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            int i = seq.getAndIncrement();
            Thread t = new DirtyThread(r, prefix + i, (i - 1) % n);
            t.setDaemon(true);
            return t;
        });
    }

    /** A dirty thread knows its index in its pool (its scheduler id minus one, for the time statistics). */
    private static final class DirtyThread extends Thread {
        final int index;
        DirtyThread(Runnable r, String name, int index) { super(r, name); this.index = index; }
    }

    /** Jobs queued (not yet running) on a pool. */
    public int queued(Kind k) { return (k == Kind.CPU ? cpu : io).getQueue().size(); }

    public int threads(Kind k) { return (k == Kind.CPU ? cpu : io).getMaximumPoolSize(); }

    /** Dirty jobs executing right now (for tests and statistics). */
    public int running() { return running.get(); }

    /**
     * Runs {@code job} on the {@code kind} pool for {@code p} (the running process, on its own
     * scheduler thread) and returns the call the native must await ({@code Trap.await(call)}).
     * An {@link ErlangException} from the job is raised in the process; any other exception
     * becomes an {@code error} naming it, and the VM keeps running.
     */
    public AsyncCall submit(ErlProcess p, Kind kind, Supplier<Term> job) {
        AsyncCall call = p.beginAsync();
        execute(kind, () -> {
            try {
                call.complete(job.get());
            } catch (ErlangException e) {
                call.fail(e);
            } catch (RuntimeException | Error e) {
                p.vm.logInternal(e);
                call.fail(ErlangException.error(ETuple.of(EAtom.of("dirty_job_failed"), EBitString.ofUtf8(String.valueOf(e)))));
            }
        });
        return call;
    }

    /**
     * Runs {@code task} on the {@code kind} pool, for natives that manage their {@link AsyncCall}
     * themselves (a NIF whose continuation moves between pools and the process's scheduler, and
     * which must release native state when {@code complete} reports the process gone).
     */
    public void execute(Kind kind, Runnable task) {
        (kind == Kind.CPU ? cpu : io).execute(() -> {
            running.incrementAndGet();
            ThreadTimes tt = times;
            long t0 = tt != null && tt.counting() ? System.nanoTime() : 0;
            try { task.run(); } finally {
                running.decrementAndGet();
                if (t0 != 0 && Thread.currentThread() instanceof DirtyThread dt) tt.add(tt.dirtySlot(kind, dt.index), System.nanoTime() - t0);
            }
        });
    }

    public void shutdown() {
        cpu.shutdownNow();
        io.shutdownNow();
    }
}
