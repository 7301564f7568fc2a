package org.jbeam.interp;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Signals;
import org.jbeam.term.*;

/**
 * Sending and the receive instructions: loop_rec (peek), remove_message, wait_timeout, timeout,
 * and the receive markers that keep {@code gen_server:call} O(1) with a long mailbox.
 */
public final class Messaging {
    private Messaging() {}

    static final int WAIT = 0, RETRY = 1, TIMED_OUT = 2, EXITING = 3;

    private static final EAtom SEND = EAtom.of("send");

    /** The send instruction's send; true if it left a distribution connection busy and the process must suspend. */
    static boolean send(Interpreter it, Term dest, Term msg) {
        try {
            it.vm.send(it.p, dest, msg);
            return it.p.busyDist != null && it.vm.dist.suspendBusySender(it.p);
        } catch (ErlangException ex) {
            ex.frameModule = EAtom.ERLANG;
            ex.frameFunction = SEND;
            ex.frameArgs = ECons.of(dest, msg);
            throw ex;
        }
    }

    /** The message at the save pointer, taking new ones from the inbox if needed; null if none. */
    static Term peek(Interpreter it) {
        ErlProcess p = it.p;
        Term m = p.mailbox.current();
        if (m != null) return m;
        if (!Signals.drain(p)) return null;
        return p.mailbox.current();
    }

    static void removeMessage(Interpreter it) {
        ErlProcess p = it.p;
        p.waitingForever = false;
        // Sequential tracing: the message's token (or none) becomes the process's (ADR 0070).
        org.jbeam.term.ETuple token = p.mailbox.currentToken();
        if (token != null || p.seqToken != null) org.jbeam.trace.SeqTrace.received(p, token, p.mailbox.current());
        p.mailbox.removeCurrent();
        Signals.cancelReceiveTimer(p);
    }

    static void timeout(Interpreter it) {
        ErlProcess p = it.p;
        p.mailbox.resetSave();
        p.timedOut = false;
        p.waitingForever = false;
        p.timer = null;
    }

    private static final EAtom TIMEOUT_VALUE = EAtom.of("timeout_value");

    /**
     * wait_timeout: WAIT (suspend), RETRY (new messages arrived: re-run loop_rec), TIMED_OUT, or
     * EXITING (an exit signal taken just now ends the process).
     */
    static int waitTimeout(Interpreter it, int operand) {
        ErlProcess p = it.p;
        if (p.timedOut) { p.timedOut = false; return TIMED_OUT; }
        if (p.timer != null || p.waitingForever) {
            // Re-executed after a message arrived: the timer runs already, and (as in BEAM) the
            // timeout operand need not be live any more.
            return drainForWait(p);
        }
        Term t = it.get(operand);
        long ms;
        if (t == EAtom.INFINITY) ms = -1;
        else if (t instanceof ESmall s && s.value >= 0 && s.value <= 0xFFFFFFFFL) ms = s.value;
        else throw ErlangException.error(TIMEOUT_VALUE);
        if (ms == 0) return TIMED_OUT;
        if (ms < 0) p.waitingForever = true;
        if (ms > 0 && p.timer == null) Signals.startReceiveTimer(p, ms);
        return drainForWait(p);
    }

    /**
     * RETRY only if the drain just before waiting brought new messages (or the timeout): the
     * receive loop has examined every older one. Testing "a message at the save pointer" instead
     * spun a receive with no clauses ({@code receive after T}, timer:sleep) — whose loop label is
     * the wait_timeout itself — on the CPU for all of T whenever an unrelated message was queued.
     * An exit signal taken here is EXITING, not RETRY: with no loop_rec to notice it, that
     * receive spun for ever on its scheduler thread (a kill that arrived while the process ran,
     * just before it waited).
     */
    private static int drainForWait(ErlProcess p) {
        Object tail = p.mailbox.mark();
        if (!Signals.drain(p)) return EXITING;
        return p.mailbox.mark() != tail || p.timedOut ? RETRY : WAIT;
    }

    static Term reserveMarker(Interpreter it) {
        Signals.drain(it.p);
        return new RecvMarker(it.p.mailbox.mark());
    }

    static void bindMarker(Interpreter it, Term marker, Term ref) {
        if (marker instanceof RecvMarker m) it.p.bindMarker(ref, m.position);
    }

    static void useMarker(Interpreter it, Term ref) {
        Object pos = it.p.marker(ref);
        if (pos != null) it.p.mailbox.useMark(pos);
    }

    static void clearMarker(Interpreter it, Term ref) {
        it.p.clearMarker(ref);
    }
}
