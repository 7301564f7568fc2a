package org.jbeam.inet;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The inet drivers' timeouts (erts' driver_set_timer): recv, accept, connect and send timeouts,
 * the linger of a closed socket, the poll loop's batched wake-up. One daemon thread, created on
 * first use; it needs no descriptor, so a timeout can be armed when the process is out of them
 * (an accept with a timeout at {@code emfile} answers {@code {error, emfile}}, as on erl, instead
 * of failing to create a selector it does not need).
 */
final class InetTimers {
    private InetTimers() {}

    private static final class Holder {
        static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jbeam-inet-timers");
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code r} on the timer thread after {@code ms} milliseconds. */
    static ScheduledFuture<?> after(long ms, Runnable r) {
        return Holder.TIMERS.schedule(r, ms, TimeUnit.MILLISECONDS);
    }
}
