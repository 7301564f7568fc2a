package org.jbeam.inet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;

import org.jbeam.runtime.AsyncCall;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.*;

/**
 * The sending half of a connected tcp_inet socket ({@link TcpIo}): the output queue written with
 * gathering writes, inet_reply backpressure (senders wait above the high watermark until the queue
 * drains below the low one, or send_timeout fires), file:sendfile's chunks, the send counters of
 * getstat. Its methods run under the TcpIo's monitor, which guards both halves' state (the socket's
 * connected/closed flags, its options, the poll interest).
 */
final class TcpOutput {
    /** A sender whose status waits for the output queue to drain: an inet_reply message or a suspended native send. */
    static final class Waiter {
        final EPid pid;
        AsyncCall call;
        ScheduledFuture<?> timer;
        Waiter(EPid pid) { this.pid = pid; }
    }

    private final TcpIo io;
    private final ArrayDeque<ByteBuffer> queue = new ArrayDeque<>();
    private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
    /** The file:sendfile/5 in progress on this socket, or null (see {@link Sendfile}). */
    private Sendfile sendfile;
    /**
     * Bytes queued and not yet written (getstat send_pend; volatile: a distribution sender reads it
     * without the lock to check the busy limit); packets sent, the largest, bytes written.
     */
    volatile long bytes;
    long cnt, max, oct;

    TcpOutput(TcpIo io) { this.io = io; }

    boolean isEmpty() { return queue.isEmpty(); }

    /** Queues and writes a send: its status now, or null when the sender must wait (it is queued). */
    Term send(Waiter w, byte[] data) {
        // erts answers enotconn on a socket its send_timeout_close closed (no delayed-close flag set).
        if (!io.connected || io.closedDone || io.writeShut || io.shutWrPending)
            return ETuple.of(TcpIo.ERROR, !io.timeoutClosed && (io.closeReported || io.closedDone || io.writeShut)
                    ? TcpIo.CLOSED : EAtom.of("enotconn"));
        Term queued = enqueue(data);
        if (queued != EAtom.OK) return queued;
        if (bytes <= TcpIo.HIGH_WATERMARK) return EAtom.OK;
        if (io.opts.sendTimeout >= 0) w.timer = InetTimers.after(io.opts.sendTimeout, () -> sendTimeout(w));
        waiting.add(w);
        return null;
    }

    /** Frames and queues one packet, then writes what the socket takes now. */
    Term enqueue(byte[] data) {
        if (!queue(data)) return ETuple.of(TcpIo.ERROR, EAtom.of("emsgsize"));
        return flushNow();
    }

    /** Frames one packet onto the output queue; false if it is too big for the packet header. */
    boolean queue(byte[] data) {
        if (!header(data.length)) return false;
        queue.add(ByteBuffer.wrap(data));
        return true;
    }

    /** Frames one packet given as buffers (a distribution packet, its large binaries by reference); false if too big. */
    boolean queue(ByteBuffer[] parts) {
        long len = 0;
        for (ByteBuffer b : parts) len += b.remaining();
        if (!header(len)) return false;
        for (ByteBuffer b : parts) queue.add(b);
        return true;
    }

    /** Queues the packet header for a body of {@code len} bytes and counts the packet; false if too big for the header. */
    private boolean header(long len) {
        byte[] h = len > Integer.MAX_VALUE ? null : Packet.header(io.opts.packet, (int) len);
        if (h == null) return false;
        if (h.length > 0) queue.add(ByteBuffer.wrap(h));
        bytes += h.length + len;
        cnt++;
        max = Math.max(max, len);
        return true;
    }

    /** Writes what the socket takes now; a write error closes the socket's data path ({error, closed}). */
    Term flushNow() {
        try {
            flush();
        } catch (IOException e) {
            io.ioFailed(e);
            return ETuple.of(TcpIo.ERROR, TcpIo.CLOSED);
        }
        io.updateInterest();
        return EAtom.OK;
    }

    private void sendTimeout(Waiter w) {
        synchronized (io) {
            if (!waiting.remove(w)) return;
            reply(w, ETuple.of(TcpIo.ERROR, TcpIo.TIMEOUT));
            if (io.opts.sendTimeoutClose) { io.timeoutClosed = true; io.closeChannel(); }
        }
    }

    void reply(Waiter w, Term status) {
        if (w.call != null) w.call.complete(status);
        else io.vm.sendTo(w.pid, ETuple.of(TcpIo.INET_REPLY, io.port.id, status));
    }

    /** The connection failed or closed: a sendfile and the waiting senders get {error, closed}, queued output is dropped. */
    void fail() {
        if (sendfile != null) { io.vm.sendTo(sendfile.caller, Sendfile.failed(io.port.id, TcpIo.CLOSED)); sendfile = null; }
        release(ETuple.of(TcpIo.ERROR, TcpIo.CLOSED));
        queue.clear();
        bytes = 0;
    }

    private void release(Term status) {
        for (Waiter w : waiting) {
            if (w.timer != null) w.timer.cancel(false);
            reply(w, status);
        }
        waiting.clear();
    }

    /** Writes the queue (and sendfile chunks) as far as the socket takes; then a pending shutdown or close. */
    void flush() throws IOException {
        do writeQueue(); while (sendfile != null && queue.isEmpty() && io.ch != null && io.ch.isOpen() && refillSendfile());
        if (io.dist != null) io.dist.receiver.drained(); // distribution senders suspended on the busy limit
        if (bytes <= TcpIo.LOW_WATERMARK && !waiting.isEmpty()) release(EAtom.OK);
        if (queue.isEmpty()) {
            if (io.shutWrPending && io.ch != null && io.ch.isOpen()) { io.shutWrPending = false; io.writeShut = true; io.ch.shutdownOutput(); }
            if (io.port.isClosed()) io.closeChannel();
        }
    }

    /** TCP_REQ_SENDFILE: {ok, []} at once; the outcome arrives as a {sendfile, S, _} message. */
    Term startSendfile(ErlProcess caller, byte[] d) {
        if (!io.connected || io.closedDone || io.writeShut) return InetCodec.error("enotconn");
        if (sendfile != null) return InetCodec.error("ealready");
        Sendfile sf = Sendfile.parse(caller != null ? caller.pid : io.port.owner, d);
        if (sf == null) return InetCodec.error("einval");
        sendfile = sf;
        flushNow();
        return InetCodec.ok();
    }

    /** Queues the sendfile's next chunk; false when it has ended (its message sent). */
    private boolean refillSendfile() {
        ByteBuffer b = sendfile.next();
        if (b == null) {
            io.vm.sendTo(sendfile.caller, sendfile.outcome(io.port.id));
            sendfile = null;
            return false;
        }
        queue.add(b);
        bytes += b.remaining();
        return true;
    }

    private void writeQueue() throws IOException {
        // A header and its packet, or a burst of queued sends, go out in one gathering write (writev).
        ByteBuffer[] batch = null;
        while (!queue.isEmpty() && io.ch != null && io.ch.isOpen()) {
            long n;
            if (queue.size() == 1) {
                n = io.ch.write(queue.peek());
            } else {
                int k = Math.min(queue.size(), 64);
                if (batch == null || batch.length < k) batch = new ByteBuffer[k];
                int i = 0;
                for (ByteBuffer b : queue) { if (i == k) break; batch[i++] = b; }
                n = io.ch.write(batch, 0, k);
            }
            bytes -= n;
            oct += n;
            while (!queue.isEmpty() && !queue.peek().hasRemaining()) queue.poll();
            if (!queue.isEmpty() && queue.peek().position() > 0 || n == 0) break; // the socket is full
        }
    }
}
