package org.jbeam.inet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;

import org.jbeam.interp.Trap;
import org.jbeam.runtime.AsyncCall;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * The data path of a connected tcp_inet socket: receive buffer and packet framing, passive recv
 * requests, active-mode delivery, the output queue with inet_reply backpressure (high/low watermark,
 * send_timeout), shutdown, close detection and statistics. The end of the input (peer closed, a
 * packet that cannot be framed) is reported by {@link TcpInputEnd}. Subclass {@link TcpInet} adds
 * the connection set-up requests. Callers hold this object's monitor.
 */
abstract class TcpIo implements SockPoll.Handler {
    static final EAtom TCP = EAtom.of("tcp"), TCP_CLOSED = EAtom.of("tcp_closed"), TCP_PASSIVE = EAtom.of("tcp_passive"),
            INET_ASYNC = EAtom.of("inet_async"), INET_REPLY = EAtom.of("inet_reply"), ERROR = EAtom.ERROR,
            TIMEOUT = EAtom.of("timeout"), CLOSED = EAtom.of("closed");
    static final int HIGH_WATERMARK = 8192, LOW_WATERMARK = 4096;
    /**
     * A connected socket keeps read interest while less than this is buffered, also in passive mode with
     * no recv pending (erts deselects then): read interest then stays set across round trips, so a recv
     * costs no epoll_ctl and no poll-thread wakeup, and a recv often finds its data already here. Beyond
     * it the kernel buffers and the peer feels backpressure as with erts. See ADR 0007.
     */
    static final int READ_AHEAD = 64 * 1024;

    /** A pending recv: answered by an inet_async message to caller, or by completing call (prim_inet:recv0 done natively). */
    private record Recv(EPid caller, AsyncCall call, int ref, int length, ScheduledFuture<?> timer) {}


    final Runtime vm;
    final Ports.Port port;
    int family;
    SocketChannel ch;
    ServerSocketChannel srv;
    /** The socket's place in the poll set (SockPoll: io_uring or the NIO selector); null until readiness is first wanted. */
    SockPoll.Watch key;
    boolean connected, readEof, closedDone, closeReported, shutWrPending, writeShut, timeoutClosed;
    InetOptions opts = new InetOptions();
    /** The receive buffer (also framed by {@link DistFraming}). */
    byte[] in = new byte[1024];
    int inLen;
    /** The HTTP parser state (0: request or status line, else headers): kept across packet type changes, as in erts. */
    private final int[] httpState = {0};
    /**
     * Bytes (or end of stream) arrived since packets were last framed; a framing error is reported
     * only on such input (see {@link TcpInputEnd#packetError}). readShut: reading stopped after a reported
     * framing error on a socket with exit_on_close false (erts' desc_close_read).
     */
    boolean freshInput, readShut;
    private final ArrayDeque<Recv> recvs = new ArrayDeque<>();
    /** The sending half: output queue, waiting senders, sendfile (same monitor). */
    final TcpOutput out = new TcpOutput(this);
    private int refs;
    long recvCnt, recvMax, recvOct;
    /** Set once this socket carries a distribution connection (erlang:setnode/3): packets go there. */
    DistFraming dist;

    TcpIo(Runtime vm, Ports.Port port) { this.vm = vm; this.port = port; }

    int nextRef() { return refs = (refs + 1) & 0xFFFF; }

    void async(EPid to, int ref, Term status) {
        if (to != null) vm.sendTo(to, ETuple.of(INET_ASYNC, port.id, ESmall.of(ref), status));
    }

    protected abstract int extraInterest();

    void updateInterest() {
        if (key != null && !key.isValid()) return;
        int ops = extraInterest();
        SockPoll loop = SockPoll.get();
        boolean poll = loop.onPollThread();
        if (ch != null && connected && !closedDone) {
            // Read-ahead interest is taken on the poll thread only (free there); a caller thread adds
            // read interest when someone waits for data, which costs a poll-thread wakeup. Only once
            // the socket has delivered data: a connection set up on the poll thread (a connect or an
            // accept that waited) and closed unread would otherwise cost a receive, its buffer, its
            // cancellation and a deferred close per connection (ADR 0021).
            if (!readEof && (wantsData() || poll && inLen < READ_AHEAD && recvCnt > 0)) ops |= SelectionKey.OP_READ;
            if (!out.isEmpty()) ops |= SelectionKey.OP_WRITE;
        }
        if (key == null) {
            // Registered lazily, the first time readiness is wanted: a socket that is connected, used and
            // closed without ever waiting (the accept benchmark; a request answered at once) costs no
            // epoll_ctl, and its close releases the fd at once instead of waiting for the poll thread
            // to drop a cancelled key (ADR 0007).
            java.nio.channels.SelectableChannel c = srv != null ? srv : ch;
            if (ops == 0 || closedDone || c == null || !c.isOpen()) return;
            try {
                key = loop.register(c, this, ops);
            } catch (IOException e) {
                // closed meanwhile: nothing to wait for
            }
            return;
        }
        if (poll) key.interest(ops);
        else key.addInterest(ops);
    }

    /** Someone takes data now: a pending passive recv or an active mode. */
    boolean wantsData() { return dist != null || opts.active != InetOptions.PASSIVE || !recvs.isEmpty(); }

    /** Readiness on the poll thread: read when someone wants the data or the read-ahead has room. */
    void readReady() throws IOException {
        if (wantsData() || inLen < READ_AHEAD) readAvailable();
    }

    void applySocketOpts() {
        for (var e : opts.other.entrySet()) socketOpt(e.getKey(), e.getValue());
    }

    private void socketOpt(int code, byte[] v) { opts.apply(code, v, ch, srv); }

    Term setopts(byte[] d) {
        opts.activeChanged = false;
        opts.passiveDue = false;
        if (!opts.set(d, this::socketOpt)) return InetCodec.error("einval");
        if (opts.passiveDue) vm.sendTo(port.owner, ETuple.of(TCP_PASSIVE, port.id));
        deliver();
        return InetCodec.ok();
    }

    Term recv(ErlProcess caller, byte[] d) {
        if (opts.active != InetOptions.PASSIVE) return InetCodec.error("einval");
        int time = InetCodec.i32(d, 0), len = InetCodec.i32(d, 4);
        if (closedDone || !connected) return InetCodec.error("enotconn");
        if (len != 0 && opts.packet != Packet.RAW) return InetCodec.error("einval");
        // tcp_inet_ctl keeps one async recv per socket: a second one while it waits is EALREADY.
        if (!recvs.isEmpty()) return InetCodec.error("ealready");
        int ref = nextRef();
        ScheduledFuture<?> timer = time >= 0 ? InetTimers.after(time, () -> recvTimeout(ref)) : null;
        recvs.add(new Recv(caller.pid, null, ref, len, timer));
        deliver();
        if (!recvs.isEmpty()) {
            // Try the socket on the caller's thread before waiting for the poll thread: under load the
            // data is often there already, which saves a poll-thread wakeup and a thread hop.
            try {
                readAvailable();
            } catch (IOException e) {
                ioFailed(e);
            }
            deliver();
        }
        return InetCodec.ok((byte) (ref >>> 8), (byte) ref);
    }

    private synchronized void recvTimeout(int ref) {
        for (Recv r : recvs) {
            if (r.ref == ref) {
                recvs.remove(r);
                answer(r, ETuple.of(ERROR, TIMEOUT));
                updateInterest();
                return;
            }
        }
    }

    /** Reads what the socket has (non-blocking) into the receive buffer; notes end of stream. */
    void readAvailable() throws IOException {
        if (key != null && key.ownsReads()) return;   // io_uring receives for this socket: a read here could reorder data
        readSocket();
    }

    private void readSocket() throws IOException {
        if (ch == null || readEof || closedDone) return;
        for (int round = 0; round < 16; round++) {
            // A large distribution packet under way takes the bytes first (they precede any in the buffer).
            boolean toBig = dist != null && dist.takesBytes();
            if (!toBig && in.length - inLen < 1024) in = java.util.Arrays.copyOf(in, in.length * 2);
            ByteBuffer to = toBig ? dist.room() : ByteBuffer.wrap(in, inLen, in.length - inLen);
            int room = to.remaining();
            int n = ch.read(to);
            if (n < 0) { readEof = freshInput = true; return; }
            if (n == 0) return;
            freshInput = true;
            if (toBig) dist.filled(n); else inLen += n;
            recvOct += n;
            // Frame now: a large packet's header seen in this read makes the next read go to its array.
            if (dist != null) dist.frame();
            // A short read drained the socket: skip the read that would only say EAGAIN (epoll is
            // level-triggered, so data or a FIN arriving later is reported again).
            if (n < room) return;
        }
    }

    /** Data (n > 0), end of stream (0) or -errno received by the io_uring poll set, on its thread. */
    @Override
    public synchronized void received(java.lang.foreign.MemorySegment data, int n, boolean more) {
        if (ch == null || readEof || closedDone) return;
        if (n > 0) {
            // A large distribution packet under way takes its bytes first; the rest goes to the buffer.
            int at = dist != null ? dist.take(data, n) : 0;
            int rest = n - at;
            if (in.length - inLen < rest) in = java.util.Arrays.copyOf(in, Math.max(in.length * 2, inLen + rest));
            java.lang.foreign.MemorySegment.copy(data, java.lang.foreign.ValueLayout.JAVA_BYTE, at, in, inLen, rest);
            inLen += rest;
            freshInput = true;
            recvOct += n;
            // A full buffer: more may be waiting. Unless a multishot receive is still armed (it delivers
            // the rest), no receive is in flight during this call (the ring re-arms after it), so
            // reading the rest here keeps the order and saves ring turns.
            if (!more && n == data.byteSize() && inLen < READ_AHEAD) {
                try {
                    readSocket();
                } catch (IOException e) {
                    ioFailed(e);
                }
            }
        } else if (n == 0) readEof = freshInput = true;
        else ioFailed(null);
        if (!port.isClosed()) deliver();
        else updateInterest();
    }

    void ioFailed(IOException e) {
        // As with show_econnreset=false, a reset or broken connection reads as a close.
        readEof = true;
        inLen = 0;
        if (dist != null) dist.drop();
        out.fail();
    }

    private Term data(int[] f) {
        recvCnt++;
        recvMax = Math.max(recvMax, f[2]);
        return Packet.term(opts, port.id, in, f, httpState);
    }

    void consume(int n) {
        System.arraycopy(in, n, in, 0, inLen - n);
        inLen -= n;
    }

    /** Hands complete packets to waiting recv calls, then (active mode) to the owner; reports a close. */
    void deliver() {
        if (port.isClosed() || closedDone) { updateInterest(); return; }
        if (dist != null) { dist.deliver(); return; }
        int consumed = 0;
        boolean framed = false;
        while (true) {
            Recv r = recvs.peek();
            // A recv whose caller died still takes its packet (complete() drops it), as erts sends the
            // inet_async to the dead caller.
            if (r == null && opts.active == InetOptions.PASSIVE) break;
            framed = true;
            int[] f = Packet.frame(in, inLen, opts.packet, opts.packetSize, opts.buffer(), r != null ? r.length : 0, opts.lineDelim, httpState);
            if (f == null) break;
            if (f == Packet.ERROR) {
                if (TcpInputEnd.packetError(this, r != null, consumed)) return;
                break;
            }
            Term data = data(f);
            consume(f[2]);
            consumed += f[2];
            if (r != null) {
                recvs.poll();
                cancel(r);
                answer(r, ETuple.of(EAtom.OK, data));
            } else {
                vm.sendTo(port.owner, Packet.activeMessage(opts.packet, port.id, data));
                if (opts.active == InetOptions.ONCE) opts.active = InetOptions.PASSIVE;
                else if (opts.active == InetOptions.MULTI && --opts.activeN <= 0) {
                    opts.active = InetOptions.PASSIVE;
                    opts.activeN = 0;
                    vm.sendTo(port.owner, ETuple.of(TCP_PASSIVE, port.id));
                }
            }
        }
        if (framed) freshInput = false;
        if (readEof && !closeReported && (!recvs.isEmpty() || opts.active != InetOptions.PASSIVE)) TcpInputEnd.peerClosed(this);
        updateInterest();
    }

    private void cancel(Recv r) { if (r.timer != null) r.timer.cancel(false); }

    /** Every waiting recv gets {error, reason}. */
    void failRecvs(EAtom reason) {
        for (Recv r : recvs) { cancel(r); answer(r, ETuple.of(ERROR, reason)); }
        recvs.clear();
    }

    private void answer(Recv r, Term status) {
        if (r.call != null) r.call.complete(status);
        else async(r.caller, r.ref, status);
    }

    /** port_command: frame, queue and write; the caller's inet_reply waits while the queue is above the high watermark. */
    public synchronized void output(ErlProcess caller, byte[] data) {
        TcpOutput.Waiter w = new TcpOutput.Waiter(caller != null ? caller.pid : port.owner);
        Term status = out.send(w, data);
        if (status == null) return;
        out.reply(w, status);
        if (status != EAtom.OK) deliver();
    }

    /**
     * prim_inet:send/3 done natively (see {@link InetNatives}): the status at once, or the caller suspends
     * (Trap.await) until the output queue drains below the low watermark or send_timeout fires.
     */
    synchronized Term sendDirect(ErlProcess caller, byte[] data, boolean nosuspend) {
        if (nosuspend && out.bytes > HIGH_WATERMARK && connected && !closedDone) return ETuple.of(ERROR, EAtom.of("busy"));
        TcpOutput.Waiter w = new TcpOutput.Waiter(caller.pid);
        Term status = out.send(w, data);
        if (status == null) {
            w.call = caller.beginAsync();
            return Trap.await(w.call);
        }
        if (status != EAtom.OK) deliver();
        return status;
    }

    /**
     * prim_inet:recv0/3 done natively: the status at once when the buffer or a non-blocking read has the
     * data (no inet_async message, no receive), else the caller suspends until the poll thread completes it.
     */
    synchronized Term recvDirect(ErlProcess caller, int len, int time) {
        if (opts.active != InetOptions.PASSIVE) return ETuple.of(ERROR, EAtom.of("einval"));
        if (closedDone || !connected) return ETuple.of(ERROR, EAtom.of("enotconn"));
        if (len != 0 && opts.packet != Packet.RAW) return ETuple.of(ERROR, EAtom.of("einval"));
        if (!recvs.isEmpty()) return ETuple.of(ERROR, EAtom.of("ealready"));
        Term t = readShut ? null : takeNow(len);
        if (t == null && !readShut && tryInlineRead()) {
            int before = inLen;
            try {
                readAvailable();
            } catch (IOException e) {
                ioFailed(e);
            }
            inlineMisses = inLen > before || readEof ? 0 : inlineMisses + 1;
            t = takeNow(len);
        }
        if (t != null) { updateInterest(); return t; }
        if (readEof && !readShut) {
            if (!closeReported) TcpInputEnd.peerClosed(this);
            return ETuple.of(ERROR, CLOSED);
        }
        if (time == 0) return ETuple.of(ERROR, TIMEOUT);
        int ref = nextRef();
        ScheduledFuture<?> timer = time >= 0 ? InetTimers.after(time, () -> recvTimeout(ref)) : null;
        AsyncCall c = caller.beginAsync();
        recvs.add(new Recv(caller.pid, c, ref, len, timer));
        updateInterest();
        return Trap.await(c);
    }

    /**
     * Whether a recv that finds its buffer empty should try a non-blocking read on the caller's thread
     * before it parks. Always while the socket is not watched yet (a request often arrives with the
     * connection). Once watched, the poll thread reads ahead as data arrives, so in a ping-pong exchange
     * the read finds nothing: the echo benchmark measured one EAGAIN read per recv (400,000 per run).
     * After {@link #INLINE_MISSES} misses in a row the read is tried only every 16th recv, which still
     * notices when the poll thread lags (under load) and data is already waiting in the kernel.
     */
    private boolean tryInlineRead() {
        return key == null || inlineMisses < INLINE_MISSES || (++inlineSkips & 15) == 0;
    }

    static final int INLINE_MISSES = Integer.getInteger("jbeam.inet.inlineMisses", 4);
    private int inlineMisses, inlineSkips;

    /** One packet from the receive buffer as a recv status, or null if none is complete (or a framing error closed the socket). */
    private Term takeNow(int len) {
        int[] f = Packet.frame(in, inLen, opts.packet, opts.packetSize, opts.buffer(), len, opts.lineDelim, httpState);
        freshInput = false;
        if (f == null) return null;
        if (f == Packet.ERROR) return TcpInputEnd.recvError(this);
        Term data = data(f);
        consume(f[2]);
        return ETuple.of(EAtom.OK, data);
    }

    /** A distribution packet: queued without a waiting sender (erts' dist output has its own busy state). */
    public synchronized boolean sendPacket(ByteBuffer[] packet) {
        if (!connected || closedDone || writeShut || shutWrPending || port.isClosed()) return false;
        return out.queue(packet) && out.flushNow() == EAtom.OK;
    }

    /** Several distribution packets in one go: queued, then written with as few (gathering) writes as the socket takes. */
    public synchronized boolean sendPackets(java.util.List<ByteBuffer[]> packets) {
        if (!connected || closedDone || writeShut || shutWrPending || port.isClosed()) return false;
        for (ByteBuffer[] p : packets) if (!out.queue(p)) return false;
        return out.flushNow() == EAtom.OK;
    }

    public void closeDist() { vm.ports.exit(port, EAtom.KILLED); }

    /** The output queue's size, read without the lock (a volatile field) by senders checking the busy limit. */
    public long pendingBytes() { return out.bytes; }

    public synchronized long[] distStats() { return new long[] {recvCnt, out.cnt, out.bytes}; }

    /** Nothing queued for output: subscribe([subs_empty_out_q]) would answer 0 (see InetOptNatives.close). */
    synchronized boolean outputEmpty() { return out.bytes == 0; }

    public void attach(org.jbeam.runtime.DistPort.Receiver r) {
        synchronized (this) {
            dist = new DistFraming(this, r);
            deliver();
        }
    }

    Term shutdown(byte[] d) {
        if (ch == null || !connected || closedDone) return InetCodec.error("enotconn");
        int how = d.length > 0 ? d[0] : 2;
        try {
            if (how == 0 || how == 2) { ch.shutdownInput(); }
            if (how == 1 || how == 2) {
                if (out.isEmpty()) { writeShut = true; ch.shutdownOutput(); } else shutWrPending = true;
            }
        } catch (IOException e) {
            return InetCodec.error(InetCodec.errno(e));
        }
        return InetCodec.ok();
    }

    byte[] stats(byte[] req) {
        return InetCodec.stats(req, recvCnt, recvMax, recvOct, out.cnt, out.max, out.oct, out.bytes);
    }

    void closeChannel() {
        closedDone = true;
        if (key != null) {
            if (!key.isValid()) return;          // released before: the watch closes the channel
            // The poll set may hold the socket open (io_uring polls keep a file reference; a registered NIO
            // channel's fd is released when the poll thread drops its key): the watch closes it once
            // released. A listen socket must stop accepting now (a connect right after close must see
            // econnrefused), so that close waits.
            if (ch != null) key.close(ch, false);
            if (srv != null) key.close(srv, true);
            return;
        }
        if (ch != null) SockPoll.closeQuietly(ch);
        if (srv != null) SockPoll.closeQuietly(srv);
    }

    /** The port closed: pending recvs fail, queued output is still written (linger) before the socket closes. */
    void stopIo() {
        if (dist != null && !closeReported) {
            closeReported = true;
            dist.receiver.closed(port.closeReason == EAtom.NORMAL ? null : port.closeReason);
        }
        failRecvs(CLOSED);
        if (!out.isEmpty() && ch != null && ch.isOpen() && !closedDone) {
            InetTimers.after(5000, () -> { synchronized (this) { closeChannel(); } });
            if (key != null && key.isValid()) key.interest(SelectionKey.OP_WRITE);
            return;
        }
        closeChannel();
    }
}
