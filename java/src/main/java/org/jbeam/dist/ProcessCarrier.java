package org.jbeam.dist;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.runtime.DistPort;
import org.jbeam.term.*;

/**
 * A connection whose controller is an Erlang process instead of a port (OTP's TLS distribution,
 * {@code gen_tcp_dist} and other alternative carriers): {@code erlang:setnode/3} got a pid. The
 * runtime does not touch a socket here; it keeps the connection's encoded packets in a queue the
 * controller drains with {@code erlang:dist_ctrl_get_data/1}, tells it {@code dist_data} when data
 * arrives after it asked ({@code dist_ctrl_get_data_notification/1}), and takes incoming packets from
 * the input handler's {@code dist_ctrl_put_data/2}. It implements {@link DistPort} so that
 * {@link DistConnection} drives both kinds of controller through one interface.
 */
final class ProcessCarrier implements DistPort {
    static final EAtom DIST_DATA = EAtom.of("dist_data"), GET_SIZE = EAtom.of("get_size"), NOTSUP = EAtom.of("notsup"),
            SHUTDOWN = EAtom.of("shutdown");

    final Distribution dist;
    final EPid controller;
    /** The connection, set by setnode/3 before the controller can see the handle. */
    volatile DistConnection conn;
    /** dist_ctrl_get_data/1 answers {Size, Data} instead of Data (dist_ctrl_set_opt get_size). */
    volatile boolean getSize;
    private final ConcurrentLinkedQueue<ByteBuffer[]> out = new ConcurrentLinkedQueue<>();
    /** Bytes in {@link #out}: dist_get_stat's pending output, and whether a notification is due at once. */
    private final AtomicLong queued = new AtomicLong();
    /** The controller asked to hear of the next data (erts' dep->notify). */
    private final AtomicBoolean notify = new AtomicBoolean();
    private final AtomicLong in = new AtomicLong(), written = new AtomicLong();
    private volatile boolean dead;

    ProcessCarrier(Distribution dist, EPid controller) {
        this.dist = dist;
        this.controller = controller;
    }

    // ---- the connection's side (DistPort) ----

    @Override
    public void attach(Receiver r) { } // input comes through dist_ctrl_put_data/2, which finds the connection itself

    @Override
    public boolean sendPacket(ByteBuffer[] data) {
        if (dead) return false;
        out.add(data);
        queued.addAndGet(size(data));
        // The notification is armed only while the queue was empty, so whoever takes it owes the message.
        if (notify.getAndSet(false)) dist.vm.sendTo(controller, DIST_DATA);
        return true;
    }

    @Override
    public boolean sendPackets(List<ByteBuffer[]> packets) {
        boolean ok = true;
        for (ByteBuffer[] p : packets) ok &= sendPacket(p);
        return ok;
    }

    /** disconnect_node/1 and a stopping net_kernel: as erts, the controller gets an exit signal kill. */
    @Override
    public void closeDist() { dist.vm.exitSignal(controller, controller, EAtom.KILL, false); }

    @Override
    public long pendingBytes() { return queued.get(); }

    @Override
    public long[] distStats() { return new long[] {in.get(), written.get(), queued.get()}; }

    /**
     * The controller exited: the connection goes down. The nodedown reason is the exit reason as
     * erl reports it: a {shutdown, R} exit (how tls_sender stops on an exit signal it traps,
     * e.g. net_kernel's exit(Ctrl, disconnect)) gives R, and normal gives connection_closed.
     */
    void controllerExited(Term reason) {
        dead = true;
        out.clear();
        queued.set(0);
        DistConnection c = conn;
        if (c == null) return;
        if (reason instanceof ETuple t && t.arity() == 2 && t.get(0) == SHUTDOWN) reason = t.get(1);
        c.closed(reason == EAtom.KILL ? EAtom.KILLED : reason == EAtom.NORMAL ? null : reason);
    }

    // ---- the controller's BIFs ----

    private static long size(ByteBuffer[] packet) {
        long n = 0;
        for (ByteBuffer b : packet) n += b.remaining();
        return n;
    }

    /** dist_ctrl_get_data/1: the next packet as an iovec (its large binaries shared, not copied), or none. */
    Term getData() {
        if (dead) return EAtom.of("none");
        ByteBuffer[] p = out.poll();
        if (p == null) return EAtom.of("none");
        long size = size(p);
        queued.addAndGet(-size);
        written.incrementAndGet();
        DistConnection c = conn;
        if (c != null) c.drained(); // senders suspended on the busy limit may resume
        Term[] parts = new Term[p.length];
        for (int i = 0; i < p.length; i++) parts[i] = EBitString.of(p[i].array(), p[i].arrayOffset() + p[i].position(), p[i].remaining());
        Term iov = ECons.of(parts);
        return getSize ? ETuple.of(EInteger.of(size), iov) : iov;
    }

    /** dist_ctrl_get_data_notification/1: dist_data now if data is waiting, else once some arrives. */
    void requestNotification() {
        if (notify.get()) return; // already asked
        if (queued.get() > 0 || !out.isEmpty()) { dist.vm.sendTo(controller, DIST_DATA); return; }
        notify.set(true);
        // A sender may have queued between the check and arming: whoever clears the flag notifies.
        if (!out.isEmpty() && notify.getAndSet(false)) dist.vm.sendTo(controller, DIST_DATA);
    }

    /** dist_ctrl_put_data/2 from the input handler: one whole packet (empty: a tick). */
    void putData(EBitString data) {
        in.incrementAndGet();
        int len = data.byteSize();
        if (len == 0) return;
        DistConnection c = conn;
        if (c != null) c.packet(data.array(), data.arrayOffset(), len, true); // a binary's bytes never change
    }

    boolean isDead() { return dead; }
}
