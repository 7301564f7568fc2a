package org.jbeam.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * jbeam's own work at process exit (restoring the terminal, debug statistics). They run once, from
 * one JVM shutdown hook on an ordinary exit, or from {@link #runAll} just before bin/jbeam's fast
 * exit ({@code org.jbeam.cli.FastExit}), which ends the process without the JVM's shutdown and
 * therefore without its shutdown hooks (ADR 0042).
 */
public final class ExitHooks {
    private ExitHooks() {}

    private static final List<Runnable> HOOKS = new ArrayList<>();
    private static boolean installed, ran;

    /** Registers work to do at exit (after the node halted), in registration order. */
    public static synchronized void add(Runnable r) {
        HOOKS.add(r);
        if (!installed) {
            installed = true;
            java.lang.Runtime.getRuntime().addShutdownHook(new Thread(ExitHooks::runAll, "jbeam-exit-hooks"));
        }
    }

    /** Runs the registered hooks if they have not run yet; a failing hook does not stop the others. */
    public static void runAll() {
        List<Runnable> l;
        synchronized (ExitHooks.class) {
            if (ran) return;
            ran = true;
            l = new ArrayList<>(HOOKS);
        }
        for (Runnable r : l) {
            try {
                r.run();
            } catch (RuntimeException | Error e) {
                // one hook's failure must not keep the terminal from being restored
                e.printStackTrace();
            }
        }
    }
}
