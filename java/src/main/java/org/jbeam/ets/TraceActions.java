package org.jbeam.ets;

import org.jbeam.term.Term;

/** What a trace match spec's body asked for on one call (see {@link MatchSpec#runTrace}). */
public final class TraceActions {
    /** {return_trace} (or {exception_trace}): a return_from message when the call returns. */
    public boolean returnTrace;
    /** {exception_trace}: also an exception_from message when it raises (jbeam: not yet delivered). */
    public boolean exceptionTrace;
    /** {message, X}: null when not given (the plain call message); false suppresses it; true is plain; else an extra element. */
    public Term message;
    /** What {caller} answers: the calling function's {M, F, Arity}, or undefined (set before the spec runs). */
    public Term caller = org.jbeam.term.EAtom.UNDEFINED;
}
