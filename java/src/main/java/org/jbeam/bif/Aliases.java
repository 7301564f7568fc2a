package org.jbeam.bif;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * Process aliases (OTP 24+): a reference that, while active, delivers messages sent to it to the
 * process that created it. OTP 25's gen_server:call replies through one.
 *
 * <p>An alias's state lives on its reference object ({@link AliasRef}): terms are shared Java
 * objects, so a reply carries the very object the caller created and sending to it is a field read
 * (and, for reply-once aliases, a CAS). Only a reference copied out by value (external format,
 * ref_to_list: a distributed gen_server:call) can come back as a distinct equal ERef; such aliases
 * are registered by value when copied. Two ConcurrentHashMaps updated on every gen_server:call
 * (put, get, remove each, with their shared size counters) cost about 10% of bench_gsstress's
 * samples (ADR 0028).
 */
public final class Aliases {
    /**
     * How an alias ends besides unalias/1. EXPLICIT (null): only unalias; REPLY: the first message
     * through it; DEMONITOR: with its monitor (demonitor or 'DOWN'); REPLY_DEMONITOR: both, and the
     * first message also removes the monitor.
     */
    public enum Mode { REPLY, DEMONITOR, REPLY_DEMONITOR }

    /** Aliases whose reference was copied out by value, for lookups with an equal rebuilt reference. */
    private final ConcurrentHashMap<ERef, AliasRef> copied = new ConcurrentHashMap<>();

    /** A reference made as an alias; {@code owner} is null once the alias is inactive. */
    static final class AliasRef extends ERef {
        private static final VarHandle OWNER;
        static {
            try {
                OWNER = MethodHandles.lookup().findVarHandle(AliasRef.class, "owner", EPid.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
        private final Aliases aliases;
        private final Mode mode;
        private volatile EPid owner;
        private volatile boolean copiedOut;

        AliasRef(Runtime vm, EPid owner, Mode mode) {
            super(vm.nodeName, vm.creation, vm.refIds());
            this.aliases = vm.aliases;
            this.owner = owner;
            this.mode = mode;
        }

        /** Deactivates the alias if {@code pid} (null: anyone) owns it; true if this call did. */
        boolean deactivate(EPid pid) {
            EPid o = owner;
            if (o == null || (pid != null && !o.equals(pid)) || !OWNER.compareAndSet(this, o, (EPid) null)) return false;
            if (copiedOut) aliases.copied.remove(this, this);
            return true;
        }

        @Override public void copiedOut() {
            if (copiedOut || owner == null) return;
            copiedOut = true;
            aliases.copied.put(this, this);
            if (owner == null) aliases.copied.remove(this, this); // deactivated meanwhile
        }
    }

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

    /** alias/0,1. */
    public ERef create(ErlProcess p, boolean reply) { return new AliasRef(p.vm, p.pid, reply ? Mode.REPLY : null); }

    /** A new reference that is an active alias of {@code p} ({@code mode} null: until unalias/1); for monitor/3. */
    ERef monitorAlias(ErlProcess p, Mode mode) { return new AliasRef(p.vm, p.pid, mode); }

    private AliasRef lookup(ERef r) {
        if (r instanceof AliasRef a) return a;
        return copied.isEmpty() ? null : copied.get(r);
    }

    /** unalias/1. */
    public boolean remove(ERef r, EPid owner) {
        AliasRef a = lookup(r);
        return a != null && a.deactivate(owner);
    }

    /** The monitor {@code r} is gone (demonitor, 'DOWN'): its alias goes too unless explicit_unalias. */
    public void monitorGone(ERef r, EPid owner) {
        AliasRef a = lookup(r);
        if (a != null && (a.mode == Mode.DEMONITOR || a.mode == Mode.REPLY_DEMONITOR)) a.deactivate(owner);
    }

    /**
     * The process a message to {@code r} goes to, or null (inactive alias: dropped). A reply-once
     * alias is consumed here; for reply_demonitor the owner also drops the monitor, by a signal
     * queued ahead of the message so the owner sees the monitor gone once it has the reply.
     */
    public EPid target(ERef r) {
        AliasRef a = lookup(r);
        if (a == null) return null;
        EPid pid = a.owner;
        if (pid == null) return null;
        Mode m = a.mode;
        if (m == Mode.REPLY || m == Mode.REPLY_DEMONITOR) {
            if (!a.deactivate(pid)) return null; // a concurrent sender used it up
            if (m == Mode.REPLY_DEMONITOR && pid.process instanceof ErlProcess owner)
                owner.deliver(new org.jbeam.runtime.Signals.Apply(q -> MonitorBifs.dropMonitor(q, a)));
        }
        return pid;
    }
}
