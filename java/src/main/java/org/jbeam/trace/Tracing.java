package org.jbeam.trace;

import org.jbeam.bif.Time;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * Trace events of processes (erlang:trace/3's send, 'receive' and procs flags): the hooks the
 * runtime calls where an event happens, each a no-op unless the process's {@code trace} field is
 * set, so untraced processes pay one field test.
 *
 * <p>Trace messages go straight into the tracer's inbox from the tracee's thread, as in erts, and
 * are never themselves traced. A tracer found dead ends the tracing of the process that would have
 * sent to it (erts clears the flags of a process whose tracer is gone).
 */
public final class Tracing {
    private Tracing() {}

    static final EAtom TRACE = EAtom.of("trace"), TRACE_TS = EAtom.of("trace_ts"), SEND = EAtom.of("send"),
            SEND_TO_NON_EXISTING = EAtom.of("send_to_non_existing_process"), RECEIVE = EAtom.of("receive"),
            SPAWN = EAtom.of("spawn"), SPAWNED = EAtom.of("spawned"), EXIT = EAtom.of("exit"), LINK = EAtom.of("link"),
            UNLINK = EAtom.of("unlink"), GETTING_LINKED = EAtom.of("getting_linked"),
            GETTING_UNLINKED = EAtom.of("getting_unlinked"), REGISTER = EAtom.of("register"),
            UNREGISTER = EAtom.of("unregister"), TIMEOUT = EAtom.of("timeout");

    /** {@code Dest ! Msg} by a traced process: send, or send_to_non_existing_process for a dead local pid. */
    public static void send(ErlProcess from, Term dest, Term msg) {
        TraceState ts = from.trace;
        if (ts == null || !ts.has(TraceFlags.SEND)) return;
        EAtom tag = SEND;
        if (dest instanceof EPid pid && pid.node == from.vm.nodeName) {
            ErlProcess to = from.vm.resolve(pid);
            if (to == null || !to.isAlive()) tag = SEND_TO_NON_EXISTING;
        } else if (dest instanceof EAtom name && from.vm.registry.whereis(name) == null) {
            return; // badarg follows; erts traces nothing
        }
        emit(from, ts, tag, msg, dest);
    }

    /** A message (or an exit or 'DOWN' message) taken into a traced process's queue. */
    public static void received(ErlProcess p, Term msg) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.RECEIVE)) emit(p, ts, RECEIVE, msg);
    }

    /** A traced process's receive ... after timed out (erts traces it as receiving 'timeout'). */
    public static void timedOut(ErlProcess p) { received(p, TIMEOUT); }

    /**
     * A process spawned {@code child}: the spawn event, trace-flag inheritance (set_on_spawn,
     * set_on_first_spawn, the defaults for new processes), then the child's spawned event.
     * Called before the child can run. {@code mfa} is {M, F, Args}.
     */
    public static void spawned(ErlProcess parent, ErlProcess child, Term mfa) {
        Runtime vm = child.vm;
        TraceState ps = parent == null ? null : parent.trace;
        if (ps != null) {
            if (ps.has(TraceFlags.PROCS)) emit(parent, ps, SPAWN, child.pid, mfa);
            ps = parent.trace; // emit may have ended it
            if (ps != null && ps.has(TraceFlags.SET_ON_SPAWN)) {
                child.trace = ps;
            } else if (ps != null && ps.has(TraceFlags.SET_ON_FIRST_SPAWN)) {
                parent.trace = new TraceState(ps.flags() & ~TraceFlags.SET_ON_FIRST_SPAWN, ps.tracer());
                child.trace = new TraceState(ps.flags() & ~TraceFlags.SET_ON_FIRST_SPAWN, ps.tracer());
            }
        }
        if (child.trace == null && vm.traceNew != null) child.trace = vm.traceNew;
        TraceState cs = child.trace;
        if (cs != null && cs.has(TraceFlags.PROCS) && parent != null) emit(child, cs, SPAWNED, parent.pid, mfa);
    }

    /** The last event of a traced process. */
    public static void exited(ErlProcess p, Term reason) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.PROCS)) emit(p, ts, EXIT, reason);
    }

    /** {@code p} linked itself to {@code other} (a local live process, or null for a port or remote pid). */
    public static void linked(ErlProcess p, Term otherId, ErlProcess other) {
        TraceState ts = p.trace;
        if (ts != null) {
            if (ts.has(TraceFlags.PROCS)) emit(p, ts, LINK, otherId);
            ts = p.trace;
            if (other != null && other.trace == null && ts != null) {
                if (ts.has(TraceFlags.SET_ON_LINK)) other.trace = ts;
                else if (ts.has(TraceFlags.SET_ON_FIRST_LINK)) {
                    p.trace = new TraceState(ts.flags() & ~TraceFlags.SET_ON_FIRST_LINK, ts.tracer());
                    other.trace = new TraceState(ts.flags() & ~TraceFlags.SET_ON_FIRST_LINK, ts.tracer());
                }
            }
        }
        if (other != null) gettingLinked(other, p.pid);
    }

    public static void gettingLinked(ErlProcess p, EPid by) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.PROCS)) emit(p, ts, GETTING_LINKED, by);
    }

    public static void unlinked(ErlProcess p, Term otherId) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.PROCS)) emit(p, ts, UNLINK, otherId);
    }

    /** A link of {@code p} went away from the other end (unlink/1 there, or its exit signal). */
    public static void gettingUnlinked(ErlProcess p, Term by) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.PROCS)) emit(p, ts, GETTING_UNLINKED, by);
    }

    public static void registered(ErlProcess p, EAtom name, boolean on) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.PROCS)) emit(p, ts, on ? REGISTER : UNREGISTER, name);
    }

    static final EAtom IN = EAtom.of("in"), OUT = EAtom.of("out"), OUT_EXITED = EAtom.of("out_exited");

    /**
     * The scheduler runs a traced process ({@code running}): in, with the function it resumes in.
     * Called before the slice, behind the scheduler's test of the trace field.
     */
    public static void scheduledIn(ErlProcess p) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.RUNNING)) emit(p, ts, IN, p.savedFunction());
    }

    /**
     * The slice of a traced process ended: out with the function it stopped in, or when it exited,
     * out_exited with 0 under the {@code exiting} flag (erts sends nothing for an exit to
     * {@code running} alone). jbeam finishes an exit within the slice, so erts' in_exiting and
     * out_exiting (an exit spread over schedulings) do not occur.
     */
    public static void scheduledOut(ErlProcess p, boolean exited) {
        TraceState ts = p.trace;
        if (ts == null) return;
        if (exited) { if (ts.has(TraceFlags.EXITING)) emit(p, ts, OUT_EXITED, ESmall.ZERO); }
        else if (ts.has(TraceFlags.RUNNING)) emit(p, ts, OUT, p.savedFunction());
    }

    static final EAtom RETURN_TO = EAtom.of("return_to");

    /**
     * A call traced with return_to returned (or an exception was caught) in function {@code mfa}
     * ({@code undefined} when that is no function, as erts says of its exit continuation).
     */
    public static void returnTo(ErlProcess p, Term mfa) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.CALL) && ts.has(TraceFlags.RETURN_TO)) emit(p, ts, RETURN_TO, mfa);
    }

    static final EAtom CALL = EAtom.of("call"), RETURN_FROM = EAtom.of("return_from");

    /**
     * What frames a traced call needs under its callee (see {@link #call}): none, a return-trace
     * or an exception-trace frame (the low bits), and a return_to frame (RETURN_TO_FRAME).
     */
    public static final int NO_FRAME = 0, RETURN_FRAME = 1, EXCEPTION_FRAME = 2, RETURN_TO_FRAME = 4, TRACE_FRAMES = 3;

    /**
     * A call of a function with pattern {@code pat} by {@code p}: the call message if p has the call
     * flag and the match spec matches. Returns the frame the spec asked for: {return_trace} a
     * return-trace frame, {exception_trace} one that also reports an exception passing through;
     * with RETURN_TO_FRAME, a process with the return_to flag wants return_to when the call of a
     * locally traced function returns (erts sends return_to only for local patterns).
     * {@code caller}: what the spec's {caller} answers (the function the call returns to).
     */
    public static int call(ErlProcess p, CallPattern pat, EAtom m, EAtom f, Term[] args, Term caller) {
        TraceState ts = p.trace;
        if (ts == null || !ts.has(TraceFlags.CALL)) return NO_FRAME;
        Term argList = ECons.of(args);
        Term extra = null;
        int frame = pat.local() && ts.has(TraceFlags.RETURN_TO) ? RETURN_TO_FRAME : NO_FRAME;
        if (pat.spec() != null) {
            org.jbeam.ets.TraceActions out = new org.jbeam.ets.TraceActions();
            out.caller = caller;
            if (!pat.spec().runTrace(argList, p, out)) return NO_FRAME;
            frame |= out.exceptionTrace ? EXCEPTION_FRAME : out.returnTrace ? RETURN_FRAME : NO_FRAME;
            extra = out.message;
            if (extra == EAtom.FALSE) return frame;
            if (extra == EAtom.TRUE) extra = null;
        }
        Term mfa = ETuple.of(m, f, ts.has(TraceFlags.ARITY) ? ESmall.of(args.length) : argList);
        if (extra == null) emit(p, ts, CALL, mfa);
        else emit(p, ts, CALL, mfa, extra);
        return frame;
    }

    static final EAtom EXCEPTION_FROM = EAtom.of("exception_from");

    /** An exception passed an exception-trace frame: {trace, Pid, exception_from, {M, F, Arity}, {Class, Reason}}. */
    public static void exceptionFrom(ErlProcess p, ETuple mfa, EAtom cls, Term reason) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.CALL)) emit(p, ts, EXCEPTION_FROM, mfa, ETuple.of(cls, reason));
    }

    /** A return-trace frame was returned through: {trace, Pid, return_from, {M, F, Arity}, Value}. */
    public static void returned(ErlProcess p, ETuple mfa, Term value) {
        TraceState ts = p.trace;
        if (ts != null && ts.has(TraceFlags.CALL)) emit(p, ts, RETURN_FROM, mfa, value);
    }

    // ---- messages ----

    private static void emit(ErlProcess p, TraceState ts, EAtom tag, Term a) {
        deliver(p, ts, ts.has(TraceFlags.ANY_TIMESTAMP)
                ? ETuple.of(TRACE_TS, p.pid, tag, a, timestamp(p, ts)) : ETuple.of(TRACE, p.pid, tag, a));
    }

    private static void emit(ErlProcess p, TraceState ts, EAtom tag, Term a, Term b) {
        deliver(p, ts, ts.has(TraceFlags.ANY_TIMESTAMP)
                ? ETuple.of(TRACE_TS, p.pid, tag, a, b, timestamp(p, ts)) : ETuple.of(TRACE, p.pid, tag, a, b));
    }

    private static void deliver(ErlProcess p, TraceState ts, Term message) {
        if (ts.tracer() instanceof EPid pid) {
            if (pid == p.pid || pid.equals(p.pid)) return; // erts sends a process none of its own trace messages
            ErlProcess tracer = p.vm.resolve(pid);
            if (tracer == null || !tracer.isAlive()) { stop(p, ts); return; }
            tracer.deliver(message);
        } else if (!PortTracer.output(p, (EPort) ts.tracer(), message)) {
            stop(p, ts);
        }
    }

    /** Whether the tracer of {@code ts} can still take messages (a live process, an open port). */
    static boolean tracerAlive(ErlProcess q, TraceState ts) {
        if (ts.tracer() instanceof EPid pid) {
            ErlProcess t = q.vm.resolve(pid);
            return t != null && t.isAlive();
        }
        return q.vm.ports.get(ts.tracer()) != null;
    }

    /** Ends the tracing of {@code p} if it is still {@code ts} (its tracer is gone). */
    static void stop(ErlProcess p, TraceState ts) {
        if (p.trace == ts) p.trace = null;
    }

    /** timestamp (erlang:now/0's form) wins over strict_monotonic_timestamp, which wins over monotonic_timestamp. */
    private static Term timestamp(ErlProcess p, TraceState ts) {
        if (ts.has(TraceFlags.TIMESTAMP)) return Time.nowTuple(Time.uniqueNowMicros());
        long mono = Time.monotonicNative(p);
        if (ts.has(TraceFlags.STRICT_MONOTONIC_TIMESTAMP))
            return ETuple.of(ESmall.of(mono), ESmall.of(p.vm.uniqueInteger() - (1L << 59)));
        return ESmall.of(mono);
    }
}
