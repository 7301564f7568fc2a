package org.jbeam.runtime;

import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import org.jbeam.term.*;

/**
 * The emulator's own reports to the logger. When a process dies of an uncaught error, as erts does, it goes to the
 * {@code logger} process ({@code {log, error, "Error in process ~p with exit value:~n~p~n", …}})
 * when one is registered, otherwise straight to standard error in the same text form.
 */
public final class CrashReport {
    private CrashReport() {}

    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("d-MMM-yyyy::HH:mm:ss.SSSSSS", java.util.Locale.ENGLISH);
    private static final String FORMAT = "Error in process ~p with exit value:~n~p~n";
    /** How long after the crash the report goes to the logger (-Djbeam.crashReport.delay, ms). */
    private static final long DELAY_MS = Long.getLong("jbeam.crashReport.delay", 0);

    static void maybeReport(Runtime vm, ErlProcess p, Term reason) {
        ErlangException ex = p.lastException;
        if (ex == null || reason == EAtom.NORMAL || !(reason instanceof ETuple t) || t.arity() != 2) return;
        // An uncaught error exits with {Reason, Stack}, an uncaught throw with {{nocatch, Value}, Stack}:
        // erts reports both (exit/1 is not reported).
        boolean uncaught = ex.cls == EAtom.ERROR ? t.get(0) == ex.reason
                : ex.cls == EAtom.THROW && t.get(0) instanceof ETuple nc && nc.arity() == 2
                        && nc.get(0) == EAtom.of("nocatch") && nc.get(1) == ex.reason;
        if (!uncaught) return;
        // erts hands the report to logger_proxy (the system_logger), which passes it to logger and
        // its handler: on erl the first report appears about 45 ms after the crash (a node that
        // halts 40 ms after it prints none, 50 ms after it prints it). jbeam's own path takes
        // longer the first time (the formatter's modules load), so the report goes at once; it
        // was held back 200 ms, which with that path lost the reports of nodes that halt up to
        // 300 ms after a crash. -Djbeam.crashReport.delay adds a delay (ms).
        toLogger(vm, p, FORMAT, ECons.of(p.pid, reason), DELAY_MS,
                "Error in process " + p.pid + " with exit value:\n" + TermPrinter.display(reason) + "\n");
    }

    /**
     * A message of the emulator's own (erts_send_error_to_logger): {@code {log, error, "~s~n",
     * [Text], Meta}} to the logger, as erts sends for "Module M must be purged before deleting".
     */
    public static void error(ErlProcess p, String text) {
        toLogger(p.vm, p, "~s~n", ECons.of(org.jbeam.bif.IoLists.stringToCharlist(text)), 0, text);
    }

    /** To the registered logger with erts' metadata, or as an error report on standard error without one. */
    private static void toLogger(Runtime vm, ErlProcess p, String format, Term args, long delayMs, String text) {
        Term logger = vm.registry.whereis(EAtom.of("logger"));
        if (logger instanceof EPid lp) {
            long now = java.time.Instant.now().toEpochMilli() * 1000;
            Term meta = EMap.of(
                    new Term[] {EAtom.of("error_logger"), EAtom.of("gl"), EAtom.of("pid"), EAtom.of("time")},
                    new Term[] {EMap.of(new Term[] {EAtom.of("emulator"), EAtom.of("tag")}, new Term[] {EAtom.TRUE, EAtom.ERROR}),
                            p.groupLeader, p.pid, ESmall.of(now)});
            Term msg = ETuple.of(EAtom.of("log"), EAtom.ERROR, org.jbeam.bif.IoLists.stringToCharlist(format), args, meta);
            if (delayMs == 0) vm.sendTo(lp, msg);
            else vm.timers.schedule(delayMs, () -> { if (!vm.halted.isDone()) vm.sendTo(lp, msg); });
            return;
        }
        PrintStream err = new PrintStream(vm.stderr, true);
        err.print("=ERROR REPORT==== " + LocalDateTime.now().format(TS) + " ===\n" + text + "\n");
    }
}
