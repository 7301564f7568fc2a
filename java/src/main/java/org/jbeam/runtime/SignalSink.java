package org.jbeam.runtime;

/**
 * Something other than a process that can hold a monitor on one: a NIF resource's
 * enif_monitor_process. Its watcher pid's {@code process} is the sink, which receives the
 * signals a process would (only {@link Signals.Down} in practice), on the signalling thread.
 */
public interface SignalSink {
    void signal(Signals.Signal s);
}
