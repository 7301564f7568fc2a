package org.jbeam.dist;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

import org.jbeam.etf.TermEncoder;
import org.jbeam.runtime.DistPort;
import org.jbeam.term.*;

/**
 * One connection to another node: pending (data queued while net_kernel connects), up (packets go
 * to the port), or dead. Its id ({@code {Number, Ref}}) is what net_kernel calls the ConnId and
 * dist_util the DHandle.
 */
final class DistConnection implements DistPort.Receiver {
    private static final int PENDING = 0, UP = 1, DEAD = 2;

    final Distribution dist;
    final EAtom node;
    /** The number in the connection id (what monitor_nodes and nodes/2 report as connection_id). */
    final long number;
    private final Term connId;
    /** Set once the connection was up: only such a connection's end is a nodedown. */
    volatile boolean wasUp;
    /** Why the connection went down (nodedown_reason). */
    volatile Term downReason = EAtom.of("connection_closed");
    private final ArrayDeque<ByteBuffer[]> queued = new ArrayDeque<>();
    /** Bytes in {@link #queued} (a pending connection's output queue, counted for back-pressure). */
    private volatile long queuedSize;
    /** Senders suspended while the output queue is over dist_buf_busy_limit. */
    final DistBusy busy = new DistBusy(this);
    private volatile DistPort port;
    private volatile int state = PENDING;
    /** The peer's flags once up; before that the data queued assumes an OTP 25 peer. */
    private volatile long flags = Distribution.DEFAULT_FLAGS;
    volatile int peerCreation;
    /** The process allowed to call dist_ctrl_put_data/2 (a process controller, or whom it named). */
    volatile EPid inputHandler;
    /** The port or pid given to setnode/3 (system_info(dist_ctrl)). */
    volatile Term controller;

    DistConnection(Distribution dist, EAtom node, long id) {
        this.dist = dist;
        this.node = node;
        this.number = id;
        this.connId = ETuple.of(EInteger.of(id), dist.vm.makeRef());
    }

    Term connId() { return connId; }
    /** The port or process carrying the connection once it is up. */
    DistPort carrier() { return port; }
    long flags() { return flags; }
    boolean has(long flag) { return (flags & flag) != 0; }
    boolean isUp() { return state == UP; }
    boolean isDead() { return state == DEAD; }

    synchronized boolean abort() {
        if (state != PENDING) return false;
        state = DEAD;
        queued.clear();
        queuedSize = 0;
        busy.drained();
        return true;
    }

    /** Bytes queued for the peer and not yet written (or taken by the controller): what the busy limit bounds. */
    long queuedBytes() {
        DistPort p = port;
        return p != null ? p.pendingBytes() + outBytes.get() : queuedSize;
    }

    /** setnode/3: writes what was queued, then every later send goes straight to the port. */
    boolean up(DistPort p, long peerFlags, int creation) {
        synchronized (this) {
            if (state != PENDING) return false;
            flags = peerFlags;
            peerCreation = creation;
            for (ByteBuffer[] f : queued) p.sendPacket(f);
            queued.clear();
            queuedSize = 0;
            port = p;
            state = UP;
            wasUp = true;
        }
        p.attach(this);
        dist.events.nodeUp(dist, node, number, (peerFlags & Distribution.PUBLISHED) != 0);
        return true;
    }

    /**
     * Sends one control message with an optional payload term. Senders on several schedulers combine:
     * each adds its packet to {@link #out}; whoever finds no write in progress writes everything
     * queued in one go (one lock, gathering writes), the others return at once. A sender's packets
     * stay in its order, since it queues them in order.
     */
    void send(Term control, Term payload) { send(control, payload, null); }

    /**
     * A message from {@code from} (null: a signal, which never suspends its sender): if it leaves
     * the queue at or over the busy limit, {@code from.busyDist} names this connection and the send
     * instruction or BIF suspends the sender ({@link Distribution#suspendBusySender}).
     */
    void send(Term control, Term payload, org.jbeam.runtime.ErlProcess from) {
        ByteBuffer[] packet = TermEncoder.encodeDist(control, payload);
        if (port == null) {
            synchronized (this) {
                if (state == PENDING) {
                    queued.add(packet);
                    for (ByteBuffer b : packet) queuedSize += b.remaining();
                    if (from != null && queuedSize >= dist.busyLimit) from.busyDist = this;
                    return;
                }
            }
            if (port == null) return; // dead: dropped, as erts drops data for a connection that went down
        }
        long size = 0;
        for (ByteBuffer b : packet) size += b.remaining();
        outBytes.addAndGet(size);
        out.add(packet);
        drainOut();
        if (from != null && queuedBytes() >= dist.busyLimit) from.busyDist = this;
    }

    private final java.util.concurrent.ConcurrentLinkedQueue<ByteBuffer[]> out = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * Bytes in {@link #out}, part of the busy limit's queue: while one sender writes (and its thread
     * may be preempted holding {@link #writing}), others' packets wait here uncounted by the port.
     * Lowered after the batch is in the port's queue (a moment counted twice, never not at all).
     */
    private final java.util.concurrent.atomic.AtomicLong outBytes = new java.util.concurrent.atomic.AtomicLong();

    private void drainOut() {
        java.util.ArrayList<ByteBuffer[]> batch = new java.util.ArrayList<>();
        while (!out.isEmpty() && writing.compareAndSet(false, true)) {
            try {
                ByteBuffer[] b;
                long size = 0;
                while (batch.size() < 256 && (b = out.poll()) != null) {
                    batch.add(b);
                    for (ByteBuffer x : b) size += x.remaining();
                }
                DistPort p = port;
                if (p != null && !batch.isEmpty()) p.sendPackets(batch);
                batch.clear();
                outBytes.addAndGet(-size);
                busy.drained(); // the port's own drained() ran while the batch was still counted here
            } finally {
                writing.set(false);
            }
        }
    }

    /** An exit signal: EXIT/EXIT2, or their PAYLOAD_ forms (reason as payload) when the peer has EXIT_PAYLOAD. */
    void sendExit(boolean linked, EPid from, EPid to, Term reason) {
        if (has(Distribution.EXIT_PAYLOAD))
            send(ETuple.of(ESmall.of(linked ? DistOps.PAYLOAD_EXIT : DistOps.PAYLOAD_EXIT2), from, to), reason);
        else send(ETuple.of(ESmall.of(linked ? DistOps.EXIT : DistOps.EXIT2), from, to, reason), null);
    }

    /** A monitor fired: MONITOR_P_EXIT, or PAYLOAD_MONITOR_P_EXIT when the peer has EXIT_PAYLOAD. */
    void sendMonitorExit(Term fromProc, EPid watcher, ERef ref, Term reason) {
        if (has(Distribution.EXIT_PAYLOAD)) send(ETuple.of(ESmall.of(DistOps.PAYLOAD_MONITOR_P_EXIT), fromProc, watcher, ref), reason);
        else send(ETuple.of(ESmall.of(DistOps.MONITOR_P_EXIT), fromProc, watcher, ref, reason), null);
    }

    long[] stats() {
        DistPort p = port;
        return p == null ? new long[] {0, 0, 0} : p.distStats();
    }

    /** disconnect_node/1: the port is killed; its owner (dist_util's connection process) goes with it. */
    void close() {
        DistPort p = port;
        if (p != null) p.closeDist();
        else if (abort()) closed(null);
    }

    @Override
    public void packet(byte[] data, int off, int len, boolean owned) {
        if (len == 0) return; // a tick
        try {
            DistDispatch.handle(this, data, off, len, owned);
        } catch (RuntimeException e) {
            // A malformed packet from the peer: erts logs and takes the connection down.
            dist.vm.logInternal(new IllegalStateException("bad distribution packet from " + node.name, e));
            close();
        }
    }

    @Override
    public void drained() { busy.drained(); }

    @Override
    public void closed(Term reason) {
        if (reason != null) downReason = reason;
        inputHandler = null;
        synchronized (this) {
            if (state == DEAD) return;
            state = DEAD;
            queued.clear();
            queuedSize = 0;
        }
        busy.drained(); // erts resumes the suspended senders when the connection goes down
        // Not under the port's lock: links and monitors of every process are visited.
        Thread.ofVirtual().start(() -> dist.down(this));
    }
}
