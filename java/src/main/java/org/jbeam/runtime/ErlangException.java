package org.jbeam.runtime;

import org.jbeam.term.*;

/**
 * An Erlang exception in flight: class ({@code error}, {@code exit}, {@code throw}), reason, and
 * the stack trace term once built. BIFs throw it (usually via {@link #badarg()}); the interpreter
 * catches it, adds the failing BIF's frame and the Erlang stack, and unwinds to a catch.
 * No Java stack trace is captured (these are control flow, not bugs).
 */
public final class ErlangException extends RuntimeException {
    public static final EAtom ERROR = EAtom.ERROR, EXIT = EAtom.of("exit"), THROW = EAtom.THROW;

    public final EAtom cls;
    public final Term reason;
    /** Arguments of the failing call for the stack trace ({@code erlang:error/2} args), or null. */
    public Term args;
    /** Extra frame info such as {@code [{error_info, Map}]}, or null. */
    public Term errorInfo;
    /** The built stack trace term (list), once the interpreter has built it. */
    public Term stacktrace;
    /** The failing native function's M:F and argument list, for the top stack frame (or null). */
    public EAtom frameModule, frameFunction;
    public Term frameArgs;
    /** A tail call to an undefined function: the caller's frame is already gone (as in OTP). */
    public boolean skipCurrentFrame;
    /** Raised by erlang:error/exit/throw themselves: no frame for the BIF (the caller is the top frame). */
    public boolean noNativeFrame;
    /** erlang:error/2,3: the caller's frame shows these arguments instead of its arity. */
    public Term currentArgs;
    /** erlang:error/3 error_info option, added to the caller frame's location. */
    public Term currentErrorInfo;

    /** An exception raised by erlang:error/exit/throw (no native frame). */
    public static ErlangException raised(EAtom cls, Term reason) {
        ErlangException e = new ErlangException(cls, reason);
        e.noNativeFrame = true;
        return e;
    }

    public ErlangException(EAtom cls, Term reason) {
        super(null, null, false, false);
        this.cls = cls;
        this.reason = reason;
    }

    @Override public String getMessage() { return cls.name + ":" + reason; }

    public static ErlangException error(Term reason) { return new ErlangException(EAtom.ERROR, reason); }
    public static ErlangException exit(Term reason) { return new ErlangException(EXIT, reason); }
    public static ErlangException thrown(Term reason) { return new ErlangException(EAtom.THROW, reason); }
    public static ErlangException badarg() { return error(EAtom.BADARG); }

    /** badarg whose error_info names a {@code cause} for {@code module} (erl_erts_errors, erl_stdlib_errors) to explain. */
    public static ErlangException badarg(String cause, EAtom module) {
        ErlangException e = badarg();
        e.errorInfo = ECons.of(ETuple.of(EAtom.ERROR_INFO,
                EMap.of(new Term[] {EAtom.of("cause"), EAtom.of("module")}, new Term[] {EAtom.of(cause), module})));
        return e;
    }
    /** badarg explained by erl_erts_errors (a BIF of erts') with {@code cause}. */
    public static ErlangException ertsBadarg(String cause) { return badarg(cause, EAtom.ERL_ERTS_ERRORS); }

    public static ErlangException badarith() { return error(EAtom.BADARITH); }
    public static ErlangException systemLimit() { return error(EAtom.SYSTEM_LIMIT); }
    public static ErlangException badmap(Term t) { return error(ETuple.of(EAtom.BADMAP, t)); }
    public static ErlangException badkey(Term k) { return error(ETuple.of(EAtom.BADKEY, k)); }
}
