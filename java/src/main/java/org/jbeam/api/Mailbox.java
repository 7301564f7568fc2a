package org.jbeam.api;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.runtime.SignalSink;
import org.jbeam.runtime.Signals;
import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.ERef;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * A pid owned by Java code: Erlang processes send to it ({@code Pid ! Msg}, or its registered
 * name) and Java threads receive, selectively if they like, as a process would. It behaves like a
 * process that traps exits: an exit signal arrives as {@code {'EXIT', From, Reason}}, and a
 * monitor it holds ({@link #monitor}) delivers {@code {'DOWN', Ref, process, Pid, Reason}}.
 *
 * <p>It is not a process: {@code is_process_alive/1} is true for its pid until it is closed, but
 * {@code link/1} to it fails with {@code noproc}. A pid rebuilt from the external term format (another node, or
 * {@code binary_to_term}) does not reach it; the pid object handed out does. Messages arrive on
 * the sending scheduler's thread; a receive blocks only the Java thread that calls it.
 */
public final class Mailbox implements SignalSink, AutoCloseable {
    private static final EAtom EXIT = EAtom.of("EXIT");

    private final Runtime vm;
    private final EPid pid;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<Term> queue = new ArrayDeque<>();
    private volatile boolean closed;
    private volatile EAtom name;

    Mailbox(Runtime vm) {
        this.vm = vm;
        this.pid = vm.processes.sinkPid(this);
    }

    /** The pid Erlang code sends to. */
    public EPid pid() { return pid; }

    /** Registers the mailbox under {@code name}; false if the name is taken. */
    public boolean register(String name) {
        EAtom a = EAtom.of(name);
        if (this.name != null || !vm.registry.registerSink(a, pid)) return false;
        this.name = a;
        return true;
    }

    /** Sends {@code msg} to a pid, registered name, {Name, Node} or alias, as {@code erlang:send/2}. */
    public void send(Term dest, Term msg) { vm.send(null, dest, msg); }

    /** The oldest message, or null if none arrives within {@code timeout}. */
    public Term receive(Duration timeout) throws InterruptedException { return receive(m -> true, timeout); }

    /**
     * The oldest message {@code matches} accepts, or null if none arrives within {@code timeout};
     * the others stay queued in order (a selective receive).
     */
    public Term receive(Predicate<Term> matches, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (true) {
                for (Iterator<Term> it = queue.iterator(); it.hasNext(); ) {
                    Term m = it.next();
                    if (matches.test(m)) {
                        it.remove();
                        return m;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) return null;
                arrived.await(left, TimeUnit.NANOSECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Messages queued and not yet received. */
    public int size() {
        lock.lock();
        try { return queue.size(); } finally { lock.unlock(); }
    }

    /**
     * monitor(process, Target): a {@code {'DOWN', Ref, process, Target, Reason}} message when it
     * exits, at once with reason {@code noproc} if it is not alive.
     */
    public ERef monitor(EPid target) {
        ERef ref = vm.makeRef();
        if (vm.resolve(target) instanceof ErlProcess other && other.watchedBy(new ErlProcess.Monitor(ref, pid, target, target, false))) return ref;
        message(ETuple.of(EAtom.DOWN, ref, EAtom.PROCESS, target, EAtom.NOPROC));
        return ref;
    }

    /** demonitor(Ref, [flush]): the monitor is gone and no 'DOWN' of it stays queued. */
    public void demonitor(ERef ref, EPid target) {
        if (vm.resolve(target) instanceof ErlProcess other) other.unwatch(ref);
        lock.lock();
        try {
            queue.removeIf(m -> m instanceof ETuple t && t.arity() == 5 && t.get(0) == EAtom.DOWN && ref.equals(t.get(1)));
        } finally {
            lock.unlock();
        }
    }

    @Override public void message(Term msg) {
        if (closed) return;
        lock.lock();
        try {
            queue.add(msg);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override public void signal(Signals.Signal s) {
        switch (s) {
            case Signals.Down d -> message(d.message());
            case Signals.Exit e -> message(ETuple.of(EXIT, e.from(), e.reason()));
            default -> {} // links, demonitors and the like: a mailbox holds none
        }
    }

    /** Unregisters the name; later messages are dropped. */
    @Override public boolean alive() { return !closed; }

    @Override public void close() {
        closed = true;
        EAtom n = name;
        if (n != null && vm.registry.whereis(n) == pid) vm.registry.unregister(n);
        lock.lock();
        try { queue.clear(); } finally { lock.unlock(); }
    }
}
