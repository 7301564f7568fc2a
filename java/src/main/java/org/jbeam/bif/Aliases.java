package org.jbeam.bif;

import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Process aliases (OTP 24+): a reference that, while active, delivers messages sent to it to the
 * process that created it. OTP 25's gen_server:call replies through one.
 */
public final class Aliases {
    /**
     * How an alias ends besides unalias/1. EXPLICIT (no entry): only unalias; REPLY: the first message
     * through it; DEMONITOR: with its monitor (demonitor or 'DOWN'); REPLY_DEMONITOR: both, and the
     * first message also removes the monitor.
     */
    public enum Mode { REPLY, DEMONITOR, REPLY_DEMONITOR }

    private final ConcurrentHashMap<ERef, EPid> active = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ERef, Mode> modes = new ConcurrentHashMap<>();

    static boolean replyOnly(Term opts) {
        Term[] os = ECons.toArray(opts);
        if (os == null) throw ErlangException.badarg();
        boolean reply = false;
        for (Term o : os) {
            if (o == EAtom.of("reply")) reply = true;
            else if (o != EAtom.of("explicit_unalias")) throw ErlangException.badarg();
        }
        return reply;
    }

    public ERef create(ErlProcess p, boolean reply) {
        ERef r = p.vm.makeRef();
        activate(r, p.pid, reply ? Mode.REPLY : null);
        return r;
    }

    /** Activates {@code r} for {@code pid}; {@code mode} null: until unalias/1. */
    public void activate(ERef r, EPid pid, Mode mode) {
        active.put(r, pid);
        if (mode != null) modes.put(r, mode);
    }

    /** unalias/1. */
    public boolean remove(ERef r, EPid owner) {
        boolean was = active.remove(r, owner);
        if (was) modes.remove(r);
        return was;
    }

    /** The monitor {@code r} is gone (demonitor, 'DOWN'): its alias goes too unless explicit_unalias. */
    public void monitorGone(ERef r, EPid owner) {
        Mode m = modes.get(r);
        if (m == Mode.DEMONITOR || m == Mode.REPLY_DEMONITOR) remove(r, owner);
    }

    /**
     * The process a message to {@code r} goes to, or null (inactive alias: dropped). A reply-once
     * alias is consumed here; for reply_demonitor the owner also drops the monitor, by a signal
     * queued ahead of the message so the owner sees the monitor gone once it has the reply.
     */
    public EPid target(ERef r) {
        EPid pid = active.get(r);
        if (pid == null) return null;
        Mode m = modes.get(r);
        if (m == Mode.REPLY || m == Mode.REPLY_DEMONITOR) {
            if (!active.remove(r, pid)) return null; // a concurrent sender used it up
            modes.remove(r);
            if (m == Mode.REPLY_DEMONITOR && pid.process instanceof ErlProcess owner)
                owner.deliver(new org.jbeam.runtime.Signals.Apply(q -> ErlangProcessBifs.dropMonitor(q, r)));
        }
        return pid;
    }
}
