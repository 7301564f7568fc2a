package org.jbeam.cli;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Ends bin/jbeam's process once the node has halted and its output is flushed, the way erts' halt
 * ends beam: with the C library's {@code _exit}, not the JVM's shutdown sequence.
 *
 * <p>Why: HotSpot's exit (VM_Exit at the final safepoint) waits up to 300 ms for every Java thread
 * that is inside a native call to come back (wait_for_threads_in_native_to_block), and a jbeam node
 * always has such threads: the io_uring completion thread in {@code io_uring_enter} and the
 * standard-input reader in {@code read(0)}. That wait was a quarter of a {@code halt().} launch
 * (ADR 0042). jbeam's own exit work (terminal restore, statistics) runs first ({@link
 * org.jbeam.runtime.ExitHooks}).
 *
 * <p>Only when bin/jbeam asks for it ({@code -Djbeam.exit=fast}): bin/jbeam leaves it off when
 * {@code JBEAM_JAVA_OPTS} has JVM options whose output or files are written by the JVM at exit
 * (JFR's dump on exit, {@code -XX:+CITime}, {@code -XX:AOTCacheOutput}, agents), and the AOT
 * training run (scripts/aot-cache.sh) and embedders never use it.
 */
final class FastExit {
    private FastExit() {}

    static final boolean ENABLED = "fast".equals(System.getProperty("jbeam.exit"));

    /** Does not return: {@code _exit(status)} when enabled and available, else {@code System.exit}. */
    static void exit(int status) {
        if (ENABLED) {
            org.jbeam.runtime.ExitHooks.runAll();
            System.out.flush();
            System.err.flush();
            try {
                Linker l = Linker.nativeLinker();
                var sym = l.defaultLookup().find("_exit");
                if (sym.isPresent()) {
                    MethodHandle h = l.downcallHandle(sym.get(), FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
                    h.invokeExact(status);
                }
            } catch (Throwable t) {
                // no _exit in this C library: the JVM's own exit below
            }
        }
        System.exit(status);
    }
}
