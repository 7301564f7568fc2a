package org.jbeam.runtime;

import org.jbeam.term.EPid;

/**
 * An Erlang process: its pid, Erlang stack, mailbox and status. (Filled in by the interpreter work.)
 */
public final class ErlProcess {
    public final EPid pid;

    public ErlProcess(EPid pid) { this.pid = pid; }
}
