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
    private final ConcurrentHashMap<ERef, EPid> active = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ERef, Boolean> replyOnly = new ConcurrentHashMap<>();

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
        activate(r, p.pid, reply);
        return r;
    }

    public void activate(ERef r, EPid pid, boolean reply) {
        active.put(r, pid);
        if (reply) replyOnly.put(r, true);
    }

    public boolean remove(ERef r, EPid owner) {
        replyOnly.remove(r);
        return active.remove(r, owner);
    }

    /** The process a message to {@code r} goes to, or null (inactive alias: dropped). */
    public EPid target(ERef r) {
        EPid pid = active.get(r);
        if (pid != null && replyOnly.remove(r) != null) active.remove(r);
        return pid;
    }
}
