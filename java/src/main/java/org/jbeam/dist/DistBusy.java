package org.jbeam.dist;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlProcess;

/**
 * Back-pressure on one connection, as erts' dist entry busy state: a process whose send leaves
 * more than {@code dist_buf_busy_limit} bytes queued for the peer (the message is queued all the
 * same) is suspended until the queue has drained below the limit; a nosuspend send to a busy
 * connection is not made. The queue is the carrier's: bytes the tcp_inet port has not written yet,
 * or packets the controller process has not taken with dist_ctrl_get_data.
 *
 * <p>Lost wake-ups are excluded as in a Dekker pair: a sender sets {@link #busy} and then reads the
 * queue size under the lock; a drainer lowers the queue size and then reads {@link #busy}. Either
 * the sender sees the drained size (and does not suspend) or the drainer sees busy (and, under
 * the lock, resumes the sender).
 */
final class DistBusy {
    private final DistConnection conn;
    private volatile boolean busy;
    private final List<ErlProcess> suspended = new ArrayList<>();

    DistBusy(DistConnection conn) { this.conn = conn; }

    boolean isBusy() { return busy || conn.queuedBytes() >= conn.dist.busyLimit; }

    /**
     * After {@code p}'s send left the queue at or over the limit: suspends it (true) unless the
     * queue has drained meanwhile or {@code p} is the connection's own controller, which must keep
     * running to drain it. Tells the system monitor (busy_dist_port) as erts.
     */
    boolean suspend(ErlProcess p) {
        if (conn.carrier() instanceof ProcessCarrier pc && pc.controller.equals(p.pid)) return false;
        synchronized (this) {
            busy = true;
            if (conn.queuedBytes() < conn.dist.busyLimit || conn.isDead()) {
                if (suspended.isEmpty()) busy = false;
                return false;
            }
            p.distSuspended = true;
            suspended.add(p);
        }
        org.jbeam.runtime.SystemMonitorEvents.busyDistPort(p.vm, p.pid, conn.controller);
        return true;
    }

    /** The carrier wrote or handed out data: resumes the suspended senders once below the limit. */
    void drained() {
        if (!busy) return;
        List<ErlProcess> resume;
        synchronized (this) {
            if (!busy || conn.queuedBytes() >= conn.dist.busyLimit && !conn.isDead()) return;
            busy = false;
            resume = new ArrayList<>(suspended);
            suspended.clear();
        }
        for (ErlProcess p : resume) {
            p.distSuspended = false;
            p.wake();
        }
    }
}
