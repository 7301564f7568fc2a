package org.jbeam.runtime;

import org.jbeam.term.Term;

/**
 * One suspended native call (DESIGN §3, the beamr call-id protocol). A native that cannot finish
 * on the scheduler thread (a dirty NIF, an I/O operation on the completion ring) creates one with
 * {@link ErlProcess#beginAsync()}, hands it to whatever does the work and returns
 * {@code Trap.await(call)}. The process parks on this call alone: messages and stray wake-ups do
 * not resume it, and the native is never executed twice. Whoever finishes the work calls
 * {@link #complete} or {@link #fail} exactly once, from any thread; the process then resumes
 * after the call with the result in x0 (or the exception raised at the call site).
 *
 * <p>If the process died meanwhile (killed while it waited), {@code complete} returns false and
 * the result is dropped: the completer must release what the result would have handed over
 * (close a file it opened, free a buffer).
 */
public final class AsyncCall {
    public final ErlProcess process;
    /** Per-process sequence number: identifies the operation a wake-up belongs to. */
    public final long id;
    private volatile Object outcome; // Term or ErlangException once done

    AsyncCall(ErlProcess process, long id) {
        this.process = process;
        this.id = id;
    }

    /** Delivers the call's result; false when the process no longer waits for this call. */
    public boolean complete(Term result) { return finish(result); }

    /** Makes the call raise {@code error} in the waiting process. */
    public boolean fail(ErlangException error) { return finish(error); }

    private boolean finish(Object o) {
        if (o == null) throw new IllegalArgumentException("null outcome");
        synchronized (this) {
            if (outcome != null) throw new IllegalStateException("async call " + id + " completed twice");
            outcome = o;
        }
        if (process.pendingCall != this || !process.isAlive()) return false;
        process.wake();
        return true;
    }

    public boolean isDone() { return outcome != null; }

    /** The outcome, or null while the work is still running (read by the waiting process only). */
    public Object outcome() { return outcome; }
}
