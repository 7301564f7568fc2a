package org.jbeam.api;

import org.jbeam.term.EPid;
import org.jbeam.term.Term;
import org.jbeam.term.TermPrinter;

/**
 * A process started by {@link JBeam#call} exited instead of returning: {@link #reason()} is its
 * exit reason as Erlang sees it ({@code {Reason, Stack}} for an uncaught error,
 * {@code {{nocatch, Value}, Stack}} for an uncaught throw, the argument of {@code exit/1}).
 */
public final class ErlangExit extends RuntimeException {
    private final transient EPid pid;
    private final transient Term reason;

    public ErlangExit(EPid pid, Term reason) {
        super("process " + pid + " exited: " + TermPrinter.display(reason), null, false, false);
        this.pid = pid;
        this.reason = reason;
    }

    public EPid pid() { return pid; }

    public Term reason() { return reason; }
}
