package org.jbeam.io;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.bindings.libc.Errno;

/**
 * The portable {@link CompletionRing} backend: each operation is a blocking libc call (through
 * FFM) on a thread pool, like erts' async/dirty-IO threads. File operations share a fixed pool
 * ({@code -Djbeam.io.threads}, default max(4, 2*cores)) with an unbounded queue, so a burst
 * queues and is never dropped; socket operations, which may block for as long as the peer
 * wishes, run on a separate growing pool so they cannot starve the file operations or each
 * other (an accept waiting for the connect that is queued behind it). {@link #submit()} hands the
 * staged operations to the pools.
 */
public final class ThreadPoolRing extends AbstractRing {
    private final ExecutorService files, sockets;
    private final ConcurrentLinkedQueue<IoRequest> staged = new ConcurrentLinkedQueue<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile boolean closed;

    public ThreadPoolRing() { this(Integer.getInteger("jbeam.io.threads", Math.max(4, 2 * Runtime.getRuntime().availableProcessors()))); }

    public ThreadPoolRing(int fileThreads) {
        files = Executors.newFixedThreadPool(fileThreads, factory("jbeam-io-file-"));
        sockets = Executors.newCachedThreadPool(factory("jbeam-io-sock-"));
    }

    private static ThreadFactory factory(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override public String backendName() { return "threads"; }

    @Override void stage(IoRequest r) {
        if (closed) throw new IllegalStateException("ring closed");
        outstanding.incrementAndGet();
        staged.add(r);
    }

    @Override public void submit() {
        IoRequest r;
        while ((r = staged.poll()) != null) {
            IoRequest req = r;
            if (closed) { finish(req, IoRequest.ECANCELED); continue; }
            (req.mayBlockIndefinitely() ? sockets : files).execute(() -> run(req));
        }
    }

    private void run(IoRequest r) {
        int res;
        if (closed) res = IoRequest.ECANCELED;
        else {
            try { res = r.runBlocking(); }
            catch (RuntimeException e) { res = -Errno.EFAULT; }   // e.g. the buffer's arena closed under us
        }
        finish(r, res);
    }

    private void finish(IoRequest r, int res) {
        outstanding.decrementAndGet();
        r.complete(res);
    }

    @Override public int outstanding() { return outstanding.get(); }

    @Override public void close() {
        if (closed) return;
        closed = true;
        submit();   // staged requests complete with -ECANCELED
        files.shutdown();
        sockets.shutdown();
        try {
            // Queued file ops see `closed` and cancel; running calls finish. Blocked socket calls
            // cannot be interrupted (daemon threads, left behind).
            files.awaitTermination(2, TimeUnit.SECONDS);
            sockets.awaitTermination(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
