package org.jbeam.socket;

import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.bindings.libc.Libc;
import org.jbeam.io.PollRing;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.ERef;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * One socket of the socket NIF (prim_socket_nif.c's ESockDescriptor): a non-blocking OS socket, its
 * owner (the controlling process: the socket is closed when it exits), and per direction the
 * "current" operation and the queue of processes waiting behind it, which is how erts serialises
 * concurrent readers, writers and acceptors. An operation that would block records itself as
 * current and asks for readiness; when the poll ring reports it, the current operation's process
 * gets {@code {'$socket', Socket, select, Ref}} and calls again (socket.erl does the waiting and the
 * timeouts). When the current operation finishes, the next queued one becomes current and is armed.
 * All state is guarded by this object's monitor; the ring thread takes it to dispatch readiness.
 */
final class Sock {
    static final EAtom TAG = EAtom.of("$socket"), SELECT = EAtom.of("select"), ABORT = EAtom.of("abort"),
            CLOSE = EAtom.of("close"), CLOSED = EAtom.of("closed"), ADD = EAtom.of("add"), DEL = EAtom.of("del");

    /** A reference that names its socket directly (no table lookup on the data path, ADR 0048's idea). */
    static final class Ref extends ERef {
        final Sock sock;
        Ref(Sock s, int[] ids) { super(EAtom.NONODE, 0, ids); this.sock = s; }
    }

    /** One operation waiting for readiness: its process, its select handle, and whether the select message went out. */
    static final class Op {
        final EPid pid;
        final Term ref;
        boolean armed, sent;
        Op(EPid pid, Term ref) { this.pid = pid; this.ref = ref; }
    }

    private static final int ID_TAG = 0x50CE7000;
    private static final java.util.concurrent.atomic.AtomicLong NEXT = new java.util.concurrent.atomic.AtomicLong(1);
    /** Every socket not yet closed, by reference (for references that were copied by value). */
    private static final ConcurrentHashMap<ERef, Sock> OPEN = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<EPid, Set<Sock>> BY_OWNER = new ConcurrentHashMap<>();
    /**
     * Processes whose current operation others queue behind, with the sockets concerned: if one exits
     * without finishing, the next waiter takes over (erts monitors the current operator for this).
     * Only filled when someone queues, so the usual single-reader socket pays nothing.
     */
    private static final ConcurrentHashMap<EPid, Set<Sock>> BLOCKERS = new ConcurrentHashMap<>();
    /** socket_registry's pid (prim_socket:on_load passes it to load_nif), told of every open and close. */
    static volatile EPid registry;

    final Runtime vm;
    final int fd, domain, type, protocol;
    final Ref ref;
    /** {'$socket', Ref}: the socket as socket.erl sees it (and as messages carry it). */
    final ETuple term;
    EPid owner;
    boolean closed, fdClosed, useRegistry, debug, iow;
    /** Where a connect is: none, in progress (select asked), or connected. */
    boolean connecting, connected, listening, bound;
    Term meta = EAtom.UNDEFINED;
    /** Default read size of recv/recvfrom with length 0 ({otp, rcvbuf}). */
    int rbufsz = 8192, rctrlsz = 1024, wctrlsz = 1024;
    /** The file descriptor a sendfile in progress sends from (a dup, see SockSendfile), or -1. */
    int sendfileFd = -1;
    Op reader, writer, acceptor, connector;
    final ArrayDeque<Op> readers = new ArrayDeque<>(), writers = new ArrayDeque<>(), acceptors = new ArrayDeque<>();
    final Counters counters = new Counters();
    private PollRing.Key key;

    Sock(Runtime vm, int fd, int domain, int type, int protocol, EPid owner, boolean useRegistry) {
        this.vm = vm;
        this.fd = fd;
        this.domain = domain;
        this.type = type;
        this.protocol = protocol;
        this.owner = owner;
        this.useRegistry = useRegistry;
        long id = NEXT.getAndIncrement();
        this.ref = new Ref(this, new int[] {(int) (id & 0x3FFFF), (int) (id >>> 18), ID_TAG});
        this.term = ETuple.of(TAG, ref);
        OPEN.put(ref, this);
        if (owner != null) BY_OWNER.computeIfAbsent(owner, k -> ConcurrentHashMap.newKeySet()).add(this);
        if (useRegistry) toRegistry(ADD);
    }

    /** The socket a term names: badarg for anything but a socket reference (closed ones included). */
    static Sock of(Term t) {
        if (t instanceof Ref r) return r.sock;
        if (t instanceof ERef r && r.node == EAtom.NONODE && r.idCount() == 3 && r.id(2) == ID_TAG) {
            Sock s = OPEN.get(r);
            if (s != null) return s;
        }
        throw org.jbeam.runtime.ErlangException.badarg();
    }

    static int openCount() { return OPEN.size(); }

    /** The sockets not yet closed (socket:info/0's counters). */
    static java.util.Collection<Sock> all() { return OPEN.values(); }

    private void toRegistry(EAtom what) {
        EPid r = registry;
        if (r != null) vm.sendTo(r, ETuple.of(TAG, what, term));
    }

    // ---- owner ----

    /** {otp, controlling_process}: moves ownership (the caller checked it is the owner). */
    synchronized void setOwner(EPid p) {
        if (closed) return;
        Set<Sock> old = BY_OWNER.get(owner);
        if (old != null) old.remove(this);
        owner = p;
        BY_OWNER.computeIfAbsent(p, k -> ConcurrentHashMap.newKeySet()).add(this);
        // erts monitors the new owner; one that is already dead closes the socket at once.
        ErlProcess op = vm.resolve(p);
        if (op == null || !op.isAlive()) closeForDeadOwner();
    }

    /**
     * A process exited (ProcessTable.exit): the sockets it owned close, fd included, as esock_down
     * does; where it was the current operation with others queued behind it, the next one takes over.
     */
    static void processExited(ErlProcess p) {
        Set<Sock> mine = BY_OWNER.remove(p.pid);
        if (mine != null) for (Sock s : mine) s.closeForDeadOwner();
        Set<Sock> blocking = BLOCKERS.remove(p.pid);
        if (blocking != null) for (Sock s : blocking) s.currentExited(p.pid);
    }

    private synchronized void currentExited(EPid pid) {
        if (closed) return;
        if (reader != null && reader.pid.equals(pid)) reader = next(readers, true);
        if (writer != null && writer.pid.equals(pid)) writer = next(writers, false);
        if (acceptor != null && acceptor.pid.equals(pid)) acceptor = next(acceptors, true);
    }

    private void closeForDeadOwner() {
        synchronized (this) {
            if (closed) return;
            beginClose();
        }
        releaseKey(() -> finalizeClose());
    }

    // ---- readiness ----

    boolean alive(EPid pid) {
        ErlProcess p = vm.resolve(pid);
        return p != null && p.isAlive();
    }

    /** Asks for readiness on behalf of {@code op} (read side: POLLIN, write side: POLLOUT). Caller holds the monitor. */
    void arm(Op op, boolean read) {
        op.armed = true;
        op.sent = false;
        PollRing.Key k = key;
        if (k == null) {
            PollRing ring = SockRing.get();
            key = k = ring.register(fd, this::ready, 0);
        }
        k.add(read ? PollRing.POLLIN : PollRing.POLLOUT);
    }

    /** Ring thread: readiness; the armed operations it satisfies get their select message. */
    private void ready(int revents) {
        synchronized (this) {
            if (closed) return;
            if ((revents & (PollRing.POLLIN | PollRing.POLLERR | PollRing.POLLHUP | PollRing.POLLRDHUP)) != 0) {
                // A current operation whose process died meanwhile passes its turn to the next waiter.
                if (reader != null && reader.armed && !alive(reader.pid)) reader = next(readers, true);
                if (acceptor != null && acceptor.armed && !alive(acceptor.pid)) acceptor = next(acceptors, true);
                fire(reader);
                fire(acceptor);
            }
            if ((revents & (PollRing.POLLOUT | PollRing.POLLERR | PollRing.POLLHUP)) != 0) {
                if (writer != null && writer.armed && !alive(writer.pid)) writer = next(writers, false);
                fire(writer);
                fire(connector);
            }
            if (key != null) key.want(wantedMask());
        }
    }

    private int wantedMask() {
        int m = 0;
        if (armed(reader) || armed(acceptor)) m |= PollRing.POLLIN;
        if (armed(writer) || armed(connector)) m |= PollRing.POLLOUT;
        return m;
    }

    private static boolean armed(Op o) { return o != null && o.armed; }

    private void fire(Op o) {
        if (o == null || !o.armed) return;
        o.armed = false;
        o.sent = true;
        vm.sendTo(o.pid, ETuple.of(TAG, term, SELECT, o.ref));
    }

    /**
     * The next queued operation of a direction whose process is still alive, armed as the new current
     * one (its process gets the select message once the socket is ready); null when none waits.
     */
    Op next(ArrayDeque<Op> q, boolean read) {
        Op o;
        while ((o = q.poll()) != null) {
            if (alive(o.pid)) {
                arm(o, read);
                return o;
            }
        }
        return null;
    }

    /**
     * Whether {@code pid} must queue behind another process's current operation; if so it is queued
     * (once per process and handle) and the NIF answers {@code select}.
     */
    boolean mustQueue(Op cur, ArrayDeque<Op> q, EPid pid, Term handle) {
        if (cur == null || cur.pid.equals(pid) || !alive(cur.pid)) return false;
        for (Op o : q) if (o.pid.equals(pid)) return true;
        q.add(new Op(pid, handle));
        BLOCKERS.computeIfAbsent(cur.pid, k -> ConcurrentHashMap.newKeySet()).add(this);
        return true;
    }

    static int queued(Op cur, ArrayDeque<Op> q) { return (cur != null ? 1 : 0) + q.size(); }

    // ---- close ----

    /**
     * nif_close's part under the monitor: marks the socket closed, aborts every waiting operation
     * with {@code {'$socket', Socket, abort, {Ref, closed}}} (the closer's own nowait operations too,
     * as erts) and forgets the owner.
     */
    void beginClose() {
        closed = true;
        for (Op o : new Op[] {reader, writer, acceptor, connector}) abort(o);
        for (ArrayDeque<Op> q : java.util.List.of(readers, writers, acceptors)) {
            for (Op o : q) abort(o);
            q.clear();
        }
        reader = writer = acceptor = connector = null;
        Set<Sock> s = BY_OWNER.get(owner);
        if (s != null) s.remove(this);
        OPEN.remove(ref);
        if (useRegistry) toRegistry(DEL);
    }

    private void abort(Op o) {
        if (o == null) return;
        vm.sendTo(o.pid, ETuple.of(TAG, term, ABORT, ETuple.of(o.ref, CLOSED)));
    }

    /**
     * Stops polling the fd; {@code then} runs once the ring holds no poll of it (at once if none is in
     * flight). Returns whether it ran at once. Called without the monitor (the ring thread may be
     * waiting for it in {@link #ready}).
     */
    boolean releaseKey(Runnable then) {
        PollRing.Key k;
        synchronized (this) { k = key; }
        if (k == null) {
            then.run();
            return true;
        }
        k.release(then);
        return k.isReleased();
    }

    /** nif_finalize_close: closes the OS socket (once). */
    Term finalizeClose() {
        synchronized (this) {
            if (fdClosed) return ETuple.of(EAtom.ERROR, CLOSED);
            fdClosed = true;
            SockSendfile.closeFile(this);
        }
        Libc.close(fd);
        return EAtom.OK;
    }

    /** esock's per-socket counters (socket:info/1). */
    static final class Counters {
        long readByte, readFails, readPkg, readPkgMax, readTries, readWaits,
                writeByte, writeFails, writePkg, writePkgMax, writeTries, writeWaits,
                accFails, accSuccess, accTries, accWaits;
    }
}
