package org.jbeam.runtime;

import org.jbeam.term.*;
import org.jbeam.trace.Tracing;

/**
 * Signals between processes (exit, link, unlink, monitor, demonitor, receive timeouts) and their
 * handling. Signals travel through the same lock-free inbox as messages, so the order between a
 * sender's messages and signals is kept. A process handles its signals when it takes messages
 * from the inbox ({@link #drain}), at every scheduling and in receive.
 */
public final class Signals {
    private Signals() {}

    /** Marker interface of non-message inbox entries. */
    public sealed interface Signal permits Exit, Link, Unlink, Monitor, Demonitor, Down, Timeout, Apply {}

    /** An exit signal; {@code linked} when it comes through a link (kill is then an ordinary reason). */
    public record Exit(Term from, Term reason, boolean linked) implements Signal {}
    public record Link(EPid from) implements Signal {}
    public record Unlink(EPid from) implements Signal {}
    public record Monitor(ErlProcess.Monitor monitor) implements Signal {}
    public record Demonitor(ERef ref) implements Signal {}
    /** A 'DOWN' message for a monitor this process holds. */
    public record Down(ERef ref, Term message) implements Signal {}
    public record Timeout(int gen) implements Signal {}
    /**
     * Work on a process's own state, done by the process in signal order (e.g. the distribution
     * layer installing the monitor a remote spawn reply confirms, ahead of later messages).
     */
    public record Apply(java.util.function.Consumer<ErlProcess> action) implements Signal {}

    /**
     * Moves inbox entries into the mailbox, handling signals on the way. Returns false when a
     * signal killed the process ({@code exitReason} is then set; the caller must exit it).
     */
    public static boolean drain(ErlProcess p) {
        MsgNode n;
        int moved = 0;
        try {
            while ((n = p.inbox.pollNode()) != null) {
                Object o = n.value;
                // Class.isInstance with a constant class: the same subtype test, without the
                // profile-based class speculation an instanceof gets (a class_check trap and a
                // recompile at the first message of a class not seen before: ADR 0032, 0053).
                if (Term.class.isInstance(o)) {
                    if (p.trace != null) Tracing.received(p, (Term) o);
                    p.mailbox.appendNode(n);
                    moved++;
                    continue;
                }
                n.value = null;
                if (Down.class.isInstance(o)) moved++; // counted as pending when offered (Inbox.offer)
                if (!handle(p, (Signal) o)) return false;
            }
        } finally {
            p.inbox.taken(moved);
        }
        return p.exitReason == null;
    }

    /**
     * An if-chain, not a pattern switch: a switch over the sealed types compiles to an
     * invokedynamic typeSwitch, which is slow until C2 has compiled this path (ADR 0028).
     */
    private static boolean handle(ErlProcess p, Signal s) {
        if (s instanceof Timeout t) {
            if (t.gen() == p.timerGen) {
                p.timedOut = true;
                p.timer = null;
                if (p.trace != null) Tracing.timedOut(p);
            }
        } else if (s instanceof Exit e) {
            return exitSignal(p, e);
        } else if (s instanceof Down d) {
            if (p.monitors.remove(d.ref()) != null) {
                p.vm.aliases.monitorGone(d.ref(), p.pid);
                if (p.trace != null) Tracing.received(p, d.message());
                p.mailbox.append(d.message());
            }
        } else if (s instanceof Link l) {
            synchronized (p) { p.links.add(l.from()); }
            if (p.trace != null) Tracing.gettingLinked(p, l.from());
        } else if (s instanceof Unlink u) {
            boolean had;
            synchronized (p) { had = p.links.remove(u.from()); }
            if (had && p.trace != null) Tracing.gettingUnlinked(p, u.from());
        } else if (s instanceof Monitor m) {
            synchronized (p) { p.monitoredBy.put(m.monitor().ref(), m.monitor()); }
        } else if (s instanceof Demonitor d) {
            synchronized (p) { p.monitoredBy.remove(d.ref()); }
        } else if (s instanceof Apply a) {
            a.action().accept(p);
        }
        return true;
    }

    private static boolean exitSignal(ErlProcess p, Exit e) {
        Term reason = e.reason();
        if (e.linked()) {
            synchronized (p) {
                if (!(e.from() instanceof EPid from) || !p.links.remove(from)) {
                    if (!(e.from() instanceof EPort)) return true; // link was removed meanwhile
                }
            }
            if (p.trace != null) Tracing.gettingUnlinked(p, e.from());
        } else if (reason == EAtom.KILL) {
            p.exitReason = EAtom.KILLED;
            return false;
        }
        if (p.trapExit) {
            Term msg = ETuple.of(EAtom.EXIT, e.from(), reason);
            if (p.trace != null) Tracing.received(p, msg);
            p.mailbox.append(msg);
            return true;
        }
        if (reason == EAtom.NORMAL && !e.from().equals(p.pid)) return true;
        p.exitReason = reason;
        return false;
    }

    /**
     * The {'EXIT', From, Reason} message exit signal {@code e} becomes when {@code p} handles it
     * while trapping exits, or null: an unlinked kill cannot be trapped, and a link exit whose
     * link is gone is dropped (as {@link #exitSignal} decides). For process_info from any thread.
     */
    static Term trappedExitMessage(ErlProcess p, Exit e) {
        if (e.linked()) {
            if (e.from() instanceof EPid from) {
                synchronized (p) { if (!p.links.contains(from)) return null; }
            } else if (!(e.from() instanceof EPort)) return null;
        } else if (e.reason() == EAtom.KILL) return null;
        return ETuple.of(EAtom.EXIT, e.from(), e.reason());
    }

    // ---- receive timers ----

    public static void startReceiveTimer(ErlProcess p, long ms) {
        ReceiveTimer t = new ReceiveTimer(p, ++p.timerGen, ms);
        p.timer = t;
        if (ms >= Scheduler.DEFER_MIN_MS) p.vm.scheduler.deferTimer(t);
        else p.vm.timers.start(t);
    }

    public static void cancelReceiveTimer(ErlProcess p) {
        p.timedOut = false;
        if (p.timer != null) {
            p.timerGen++;
            if (p.timer instanceof TimerWheel.Timer t) t.cancel();
            p.timer = null;
        }
    }

    /** A receive's `after`: tells the process, which ignores it if the receive is over (gen). */
    private static final class ReceiveTimer extends TimerWheel.Timer {
        private final ErlProcess p;
        private final int gen;

        ReceiveTimer(ErlProcess p, int gen, long ms) {
            super(ms);
            this.p = p;
            this.gen = gen;
        }

        @Override protected void fire() { p.deliver(new Timeout(gen)); }
    }
}
