package org.jbeam.inet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * The inet drivers' poll set (erts' check_io): one daemon thread running a java.nio Selector,
 * dispatching readiness to {@link Handler}s (the fallback backend's sockets; driver timeouts are
 * {@link InetTimers}').
 */
final class IoLoop {
    /** A socket registered with the loop; called on the loop thread. */
    interface Handler {
        void ready(SelectionKey key);
    }

    private static volatile IoLoop instance;

    static IoLoop get() {
        IoLoop l = instance;
        if (l == null) {
            synchronized (IoLoop.class) {
                if (instance == null) instance = new IoLoop();
                l = instance;
            }
        }
        return l;
    }

    private final Selector selector;
    private final Thread thread;

    private IoLoop() {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = Thread.ofPlatform().daemon(true).name("jbeam-inet-poll").unstarted(this::run);
        thread.setUncaughtExceptionHandler((th, e) -> e.printStackTrace());
        thread.start();
    }

    private void run() {
        while (true) {
            try {
                selector.select();
                for (SelectionKey k : selector.selectedKeys()) {
                    if (!k.isValid()) continue;
                    try {
                        ((Handler) k.attachment()).ready(k);
                    } catch (RuntimeException e) {
                        e.printStackTrace();
                    }
                }
                selector.selectedKeys().clear();
            } catch (IOException | java.nio.channels.ClosedSelectorException e) {
                return;
            }
        }
    }

    /** Registers a non-blocking channel with no interest yet. */
    SelectionKey register(SelectableChannel ch, Handler h) throws IOException {
        ch.configureBlocking(false);
        SelectionKey k = ch.register(selector, 0, h);
        return k;
    }

    /** Registers a (non-blocking) channel with interest {@code ops}, waking the poll thread to watch it. */
    SelectionKey register(SelectableChannel ch, Handler h, int ops) throws IOException {
        ch.configureBlocking(false);
        SelectionKey k = ch.register(selector, ops, h);
        if (ops != 0 && !onPollThread()) selector.wakeup();
        return k;
    }

    /**
     * Changes a key's interest set. Only a change that adds interest needs the poll thread awake (it may
     * sleep in epoll_wait without the new bit); the wakeup (an eventfd write plus a context switch) is
     * skipped on the poll thread itself and when bits are only removed.
     */
    void interest(SelectionKey k, int ops) {
        if (k == null || !k.isValid()) return;
        int old = k.interestOps();
        if (old != ops) {
            k.interestOps(ops);
            if ((ops & ~old) != 0 && Thread.currentThread() != thread) selector.wakeup();
        }
    }

    /**
     * Adds interest bits only: a bit no longer wanted is left set (removing it costs an epoll_ctl and
     * adding it back a wakeup); the poll thread drops it when a readiness event finds nobody wanting it.
     */
    void addInterest(SelectionKey k, int ops) {
        if (k == null || !k.isValid()) return;
        int old = k.interestOps();
        if ((old | ops) != old) interest(k, old | ops);
    }

    boolean onPollThread() { return Thread.currentThread() == thread; }

    /** Wakes the poll thread so that closed channels' keys are deregistered (and their fds released). */
    void wakeup() { selector.wakeup(); }

    private final java.util.concurrent.atomic.AtomicBoolean wakePending = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * As {@link #wakeup}, within a millisecond: closes in a burst (an accept loop, many owners exiting)
     * share one wakeup instead of an eventfd write and a poll-thread switch each. A busy poll thread
     * deregisters them on its next round anyway.
     */
    void wakeupSoon() {
        if (!wakePending.getAndSet(true)) {
            InetTimers.after(1, () -> {
                wakePending.set(false);
                selector.wakeup();
            });
        }
    }

    /** Waits (briefly, bounded) until the poll thread has dropped a cancelled channel's registration. */
    void awaitDeregistered(SelectableChannel ch) {
        if (Thread.currentThread() == thread) return;
        selector.wakeup();
        long end = System.nanoTime() + 200_000_000L;
        while (ch.isRegistered() && System.nanoTime() < end) {
            selector.wakeup();
            Thread.onSpinWait();
            try {
                Thread.sleep(0, 100_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
