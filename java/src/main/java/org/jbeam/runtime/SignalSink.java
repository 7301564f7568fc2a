package org.jbeam.runtime;

import org.jbeam.term.Term;

/**
 * Something other than a process behind a local pid: a NIF resource's enif_monitor_process
 * watcher, or an embedding API mailbox (org.jbeam.api.Mailbox). The pid's {@code process} is the
 * sink, which receives the signals a process would (only {@link Signals.Down} in practice) and,
 * for a mailbox, the messages sent to the pid, on the sending thread.
 */
public interface SignalSink {
    void signal(Signals.Signal s);

    /** A message sent to the pid; dropped unless the sink keeps messages. */
    default void message(Term msg) {}

    /** True while the pid should count as a live process (is_process_alive/1): an open mailbox. */
    default boolean alive() { return false; }
}
