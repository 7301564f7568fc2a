package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Runtime;
import org.jbeam.runtime.TimerWheel;
import org.jbeam.term.*;

/**
 * erlang:send_after/3,4, start_timer/3,4, cancel_timer/1,2, read_timer/1,2 on the node's
 * {@link TimerWheel}. Return values and badargs as OTP 25 (checked against erl by
 * tests/erl/timers_bifs.erl): a timer that fired, was cancelled, or whose destination process
 * died reads as {@code false}.
 *
 * <p>The reference a timer BIF returns is a {@link TimerRef} that points at its timer, so
 * cancel_timer/read_timer need no table: terms are shared Java objects, so the caller gets the
 * same object back. Only a reference copied out by value (term_to_binary, ref_to_list) can come
 * back as a distinct equal ERef; such timers are registered by value when copied (ADR 0028; a
 * table of every timer cost about 10% of bench_timers' samples, in ConcurrentHashMap).
 */
final class TimerBifs {
    private TimerBifs() {}

    private static final String E = "erlang";
    private static final EAtom ABS = EAtom.of("abs"), ASYNC = EAtom.of("async"), INFO = EAtom.of("info"),
            CANCEL_TIMER = EAtom.of("cancel_timer"), READ_TIMER = EAtom.of("read_timer");
    /** Largest relative time erl 25 accepts (2^43-1 ms passes there, 2^44-1 does not). */
    private static final long MAX_MS = (1L << 43) - 1;

    static void register(BifTable t) {
        t.bif3(E, "send_after", (p, ms, dest, msg) -> start(p, ms, dest, msg, false, ENil.NIL));
        t.bif4(E, "send_after", (p, a) -> start(p, a[0], a[1], a[2], false, a[3]));
        t.bif3(E, "start_timer", (p, ms, dest, msg) -> start(p, ms, dest, msg, true, ENil.NIL));
        t.bif4(E, "start_timer", (p, a) -> start(p, a[0], a[1], a[2], true, a[3]));
        t.bif1(E, "cancel_timer", (p, r) -> cancelOrRead(p, r, true, false, true));
        t.bif2(E, "cancel_timer", (p, r, o) -> {
            boolean[] ai = options(o, true);
            return cancelOrRead(p, r, true, ai[0], ai[1]);
        });
        t.bif1(E, "read_timer", (p, r) -> cancelOrRead(p, r, false, false, true));
        t.bif2(E, "read_timer", (p, r, o) -> {
            boolean[] ai = options(o, false);
            return cancelOrRead(p, r, false, ai[0], true);
        });
    }

    /** The reference of a send_after/start_timer timer, carrying the timer itself. */
    private static final class TimerRef extends ERef {
        /** Set before the reference is published; cleared when the timer fires or is cancelled. */
        SendTimer timer;

        TimerRef(Runtime vm) { super(vm.nodeName, vm.creation, vm.refIds()); }

        @Override public void copiedOut() {
            SendTimer t = timer;
            if (t == null || t.copied || !t.isPending()) return;
            t.copied = true;
            var byRef = t.vm.timers.byRef;
            byRef.put(this, t);
            if (!t.isPending()) byRef.remove(this, t); // fired or cancelled meanwhile: its remover may have missed it
        }
    }

    /** A timer that sends a message; dest is a pid or a name looked up when it fires. */
    private static final class SendTimer extends TimerWheel.Timer {
        final Runtime vm;
        final TimerRef ref;
        final Term dest, payload;
        /** Registered in the wheel's byRef table (its reference was copied out). */
        volatile boolean copied;

        SendTimer(Runtime vm, TimerRef ref, Term dest, Term payload, long ms) {
            super(ms);
            this.vm = vm;
            this.ref = ref;
            this.dest = dest;
            this.payload = payload;
        }

        @Override protected void fire() {
            forget();
            try {
                vm.send(null, dest, payload);
            } catch (ErlangException ignored) {
                // a name nobody holds any more: the message is dropped, as in OTP
            }
        }

        /** Fired or cancelled: the reference no longer keeps the timer (and its message) alive. */
        void forget() {
            ref.timer = null;
            if (copied) vm.timers.byRef.remove(ref, this);
        }

        /** OTP cancels a timer whose destination process exits. */
        boolean destGone() { return dest instanceof EPid pid && !(pid.process instanceof ErlProcess q && q.isAlive()); }
    }

    private static Term start(ErlProcess p, Term time, Term dest, Term msg, boolean wrap, Term opts) {
        boolean abs = false;
        if (opts != ENil.NIL) {
            Term[] os = ECons.toArray(opts);
            if (os == null) throw ErlangException.ertsBadarg("badopt");
            for (Term o : os) {
                if (o instanceof ETuple t && t.arity() == 2 && t.get(0) == ABS && (t.get(1) == EAtom.TRUE || t.get(1) == EAtom.FALSE))
                    abs = t.get(1) == EAtom.TRUE;
                else throw ErlangException.ertsBadarg("badopt");
            }
        }
        // erts' cause for a bad time (not an integer, negative, too far ahead); a bad destination has none.
        if (!(time instanceof ESmall s)) throw ErlangException.ertsBadarg("time");
        long ms = s.value;
        if (abs) ms = ms - Math.floorDiv(Time.monotonicNative(p), 1_000_000L);
        else if (ms < 0) throw ErlangException.ertsBadarg("time");
        if (ms > MAX_MS) throw ErlangException.ertsBadarg("time");
        if (!(dest instanceof EPid) && !(dest instanceof EAtom)) throw ErlangException.badarg();
        TimerRef ref = new TimerRef(p.vm);
        SendTimer timer = new SendTimer(p.vm, ref, dest, wrap ? ETuple.of(EAtom.TIMEOUT, ref, msg) : msg, Math.max(0, ms));
        ref.timer = timer;
        p.vm.timers.start(timer);
        return ref;
    }

    /** [{async, Bool}] and, for cancel_timer, [{info, Bool}]; returns {async, info}. */
    private static boolean[] options(Term opts, boolean infoAllowed) {
        Term[] os = ECons.toArray(opts);
        if (os == null) throw ErlangException.badarg();
        boolean async = false, info = true;
        for (Term o : os) {
            if (!(o instanceof ETuple t) || t.arity() != 2 || (t.get(1) != EAtom.TRUE && t.get(1) != EAtom.FALSE))
                throw ErlangException.badarg();
            boolean v = t.get(1) == EAtom.TRUE;
            if (t.get(0) == ASYNC) async = v;
            else if (t.get(0) == INFO && infoAllowed) info = v;
            else throw ErlangException.badarg();
        }
        return new boolean[] {async, info};
    }

    private static SendTimer timerOf(Runtime vm, ERef ref) {
        if (ref instanceof TimerRef tr) return tr.timer;
        var byRef = vm.timers.byRef;
        return byRef.isEmpty() || !(byRef.get(ref) instanceof SendTimer t) ? null : t;
    }

    private static Term cancelOrRead(ErlProcess p, Term r, boolean cancel, boolean async, boolean info) {
        if (!(r instanceof ERef ref)) throw ErlangException.badarg();
        Term result = EAtom.FALSE;
        SendTimer t = timerOf(p.vm, ref);
        if (t != null) {
            if (t.destGone()) {
                if (t.cancel()) t.forget();
            } else if (cancel) {
                if (t.cancel()) {
                    t.forget();
                    result = ESmall.of(t.remainingMillis());
                }
            } else if (t.isPending()) result = ESmall.of(t.remainingMillis());
        }
        if (async) {
            if (info) p.deliver(ETuple.of(cancel ? CANCEL_TIMER : READ_TIMER, ref, result));
            return EAtom.OK;
        }
        return info ? result : EAtom.OK;
    }
}
