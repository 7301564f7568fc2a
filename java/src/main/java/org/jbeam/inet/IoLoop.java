package org.jbeam.inet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The inet drivers' poll set (erts' check_io): one daemon thread running a java.nio Selector,
 * dispatching readiness to {@link Handler}s, plus a timer thread for driver timeouts
 * (recv/accept/connect/send timeouts, erts' driver_set_timer).
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
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "jbeam-inet-timers");
        t.setDaemon(true);
        return t;
    });

    private IoLoop() {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread t = Thread.ofPlatform().daemon(true).name("jbeam-inet-poll").start(this::run);
        t.setUncaughtExceptionHandler((th, e) -> e.printStackTrace());
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

    /** Changes a key's interest set; the poll thread picks it up at once. */
    void interest(SelectionKey k, int ops) {
        if (k == null || !k.isValid()) return;
        if (k.interestOps() != ops) {
            k.interestOps(ops);
            selector.wakeup();
        }
    }

    /** Wakes the poll thread so that closed channels' keys are deregistered (and their fds released). */
    void wakeup() { selector.wakeup(); }

    /** Waits (briefly, bounded) until the poll thread has dropped a cancelled channel's registration. */
    void awaitDeregistered(SelectableChannel ch) {
        if (Thread.currentThread().getName().equals("jbeam-inet-poll")) return;
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

    ScheduledFuture<?> after(long ms, Runnable r) {
        return timers.schedule(r, ms, TimeUnit.MILLISECONDS);
    }
}
