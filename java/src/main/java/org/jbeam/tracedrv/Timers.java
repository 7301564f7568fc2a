package org.jbeam.tracedrv;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The timer thread of the trace drivers (driver_set_timer): wrap-by-time logs. Made on first use. */
final class Timers {
    private Timers() {}

    static final ScheduledExecutorService POOL = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "jbeam-trace-drv-timer");
        t.setDaemon(true);
        return t;
    });
}
