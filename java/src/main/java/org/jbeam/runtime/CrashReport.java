package org.jbeam.runtime;

import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import org.jbeam.term.*;

/**
 * What the runtime itself prints when a process dies of an uncaught error and no logger is
 * running to do it: OTP's "Error in process ... with exit value" report on standard error.
 */
final class CrashReport {
    private CrashReport() {}

    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("d-MMM-yyyy::HH:mm:ss.SSSSSS", java.util.Locale.ENGLISH);

    static void maybeReport(Runtime vm, ErlProcess p, Term reason) {
        ErlangException ex = p.lastException;
        if (ex == null || ex.cls != EAtom.ERROR || reason == EAtom.NORMAL) return;
        if (!(reason instanceof ETuple t) || t.arity() != 2 || t.get(0) != ex.reason) return;
        PrintStream err = new PrintStream(vm.stderr, true);
        err.print("=ERROR REPORT==== " + LocalDateTime.now().format(TS) + " ===\n"
                + "Error in process " + p.pid + " with exit value:\n" + TermPrinter.display(reason) + "\n\n");
    }
}
