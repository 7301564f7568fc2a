package org.jbeam.inet;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;

import org.jbeam.interp.Trap;
import org.jbeam.runtime.AsyncCall;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * The datagram path of a udp_inet socket ({@link UdpInet}): passive receives (PACKET_REQ_RECV,
 * answered by {inet_async, S, Ref, {ok, [Family, P1, P0, IP.. | Data]}}, and prim_inet:recvfrom0 done
 * natively), active-mode delivery ({udp, S, IP, Port, Data}, {udp_passive, S}), sendto via
 * port_command ({inet_reply, S, _}) and natively, statistics and close. Subclass {@link UdpInet} adds
 * the port_control requests that set the socket up, as {@link TcpInet} does for {@link TcpIo}.
 * Callers hold this object's monitor.
 *
 * <p>Datagrams arrive through the io_uring socket ring when that is the socket backend ({@link UdpRing}:
 * an IORING_OP_RECVMSG kept in flight, ADR 0040), else through readiness on the {@link IoLoop} selector
 * and a non-blocking receive. Sends are a non-blocking sendto on the caller's thread either way.
 */
abstract class UdpIo implements IoLoop.Handler, org.jbeam.io.PollRing.Listener {
    static final EAtom UDP = EAtom.of("udp"), UDP_PASSIVE = EAtom.of("udp_passive"), UDP_ERROR = EAtom.of("udp_error");
    /** The driver's receive buffer (INET_LOPT_BUFFER): a longer datagram is truncated to it, as in erts. */
    static final int BUFFER = 20, MIN_BUFFER = 1460, MAX_BUFFER = 65536;

    /** A pending recv: answered by an inet_async message, or by completing call (prim_inet:recvfrom0 done natively). */
    private record Recv(EPid caller, AsyncCall call, int ref, ScheduledFuture<?> timer) {}

    final Runtime vm;
    final Ports.Port port;
    int family;
    DatagramChannel ch;
    private SelectionKey key;
    boolean bound, connected, closed;
    InetOptions opts = new InetOptions();
    private final ArrayDeque<Recv> recvs = new ArrayDeque<>();
    private ByteBuffer buf = ByteBuffer.allocate(MAX_BUFFER);
    private int refs;
    /** io_uring receive (null: the NIO selector path). */
    UdpRing ring;
    /**
     * Ring only: datagrams (Datagram) and receive errors (EAtom) the ring received that nobody has taken
     * yet. Once the socket has wanted data (readAhead), a receive stays armed while this holds fewer
     * than AHEAD_MAX entries, also in passive mode with no recv waiting: a recv or an {active, once}
     * then finds its datagram here or waits without a caller thread waking the ring thread to arm a
     * receive. Datagrams beyond that wait in the kernel's buffer (recbuf), as with erts; one entry
     * keeps what a full recbuf drops within one datagram of erts (inet_udp opens with an 8 KiB recbuf).
     */
    private final ArrayDeque<Object> ahead = new ArrayDeque<>();
    private boolean readAhead;
    private static final int AHEAD_MAX = 1;
    long recvCnt, recvMax, recvOct, sendCnt, sendMax, sendOct;

    UdpIo(Runtime vm, Ports.Port port) {
        this.vm = vm;
        this.port = port;
    }

    int bufferSize() { return InetCodec.i32(opts.other.get(BUFFER), 0); }

    int nextRef() { return refs = (refs + 1) & 0xFFFF; }

    Term refReply(int ref) { return InetCodec.ok((byte) (ref >>> 8), (byte) ref); }

    void async(EPid to, int ref, Term status) {
        vm.sendTo(to, ETuple.of(TcpIo.INET_ASYNC, port.id, ESmall.of(ref), status));
    }

    Term recv(ErlProcess caller, byte[] d) {
        if (ch == null || closed) return InetCodec.error("enotconn");
        if (opts.active != InetOptions.PASSIVE) return InetCodec.error("einval");
        // packet_inet_ctl keeps one async op per socket: a second recv while one waits is EALREADY.
        if (!recvs.isEmpty()) return InetCodec.error("ealready");
        int time = InetCodec.i32(d, 0);
        int ref = nextRef();
        ScheduledFuture<?> timer = time > 0 ? InetTimers.after(time, () -> recvTimeout(ref)) : null;
        recvs.add(new Recv(caller.pid, null, ref, timer));
        try {
            readAvailable();
        } catch (IOException e) {
            readFailed(e);
        }
        if (time == 0 && recvs.peekLast() != null && recvs.peekLast().ref == ref) {
            recvs.pollLast();
            async(caller.pid, ref, ETuple.of(TcpIo.ERROR, TcpIo.TIMEOUT));
        }
        updateInterest();
        return refReply(ref);
    }

    private void answer(Recv r, Term status) {
        if (r.call != null) r.call.complete(status);
        else async(r.caller, r.ref, status);
    }

    /**
     * prim_inet:recvfrom0/3 done natively (see {@link InetNatives}): {ok, {IP, Port, Data}} at once when a
     * datagram is queued in the kernel, else the caller suspends (Trap.await) until one arrives, the timer
     * fires or the port closes. Same statuses as the message path, no inet_async message or receive.
     */
    synchronized Term recvDirect(ErlProcess caller, int time) {
        if (ch == null || closed) return ETuple.of(TcpIo.ERROR, EAtom.of("enotconn"));
        if (opts.active != InetOptions.PASSIVE) return ETuple.of(TcpIo.ERROR, EAtom.of("einval"));
        if (!recvs.isEmpty()) return ETuple.of(TcpIo.ERROR, EAtom.of("ealready"));
        Object o = ahead.poll();
        if (o != null) {
            updateInterest();     // re-arms the ring's receive if the read-ahead was full
            return o instanceof Datagram d ? ETuple.of(EAtom.OK, ETuple.of(d.ip(), ESmall.of(d.port()), payload(d.data())))
                    : ETuple.of(TcpIo.ERROR, (Term) o);
        }
        // The socket itself is read here only while no ring receive can be in flight (it never wanted data).
        if (bound && (ring == null || !readAhead)) {
            try {
                Datagram d = receiveOne();
                if (d != null) return ETuple.of(EAtom.OK, ETuple.of(d.ip(), ESmall.of(d.port()), payload(d.data())));
            } catch (IOException e) {
                return ETuple.of(TcpIo.ERROR, EAtom.of(e instanceof java.net.PortUnreachableException ? "econnrefused" : InetCodec.errno(e)));
            }
        }
        if (time == 0) return ETuple.of(TcpIo.ERROR, TcpIo.TIMEOUT);
        int ref = nextRef();
        ScheduledFuture<?> timer = time > 0 ? InetTimers.after(time, () -> recvTimeout(ref)) : null;
        AsyncCall c = caller.beginAsync();
        recvs.add(new Recv(caller.pid, c, ref, timer));
        updateInterest();
        return Trap.await(c);
    }

    private synchronized void recvTimeout(int ref) {
        for (Recv r : recvs) {
            if (r.ref == ref) {
                recvs.remove(r);
                answer(r, ETuple.of(TcpIo.ERROR, TcpIo.TIMEOUT));
                updateInterest();
                return;
            }
        }
    }


    /** Whether someone wants datagrams now: a pending recv or an active mode. */
    private boolean wanted() { return !recvs.isEmpty() || opts.active != InetOptions.PASSIVE; }

    /**
     * Hands datagrams to a waiting recv or the active owner while someone wants them: those the ring
     * received first, then (NIO path) what a non-blocking receive finds.
     */
    void readAvailable() throws IOException {
        while (!closed && wanted() && !ahead.isEmpty()) {
            Object o = ahead.poll();
            if (o instanceof Datagram d) deliver(d);
            else failed((EAtom) o);
        }
        if (ring != null) return;
        while (ch != null && !closed && bound && wanted()) {
            Datagram d = receiveOne();
            if (d == null) return;
            deliver(d);
        }
    }

    /** A received datagram: the sender's address as inet_drv reports it, and the data. */
    private record Datagram(Term ip, int port, byte[] data) {}

    /**
     * A receive of the ring completed ({@code n >= 0} bytes, a datagram may be empty) or failed (-errno); on
     * the ring thread, with no receive of this socket in flight, so the msghdr block may be read and reset.
     */
    @Override
    public synchronized void received(java.lang.foreign.MemorySegment msg, int n, boolean more) {
        if (closed || ring == null) return;
        if (n >= 0) {
            n = Math.min(n, bufferSize());
            recvCnt++;
            recvMax = Math.max(recvMax, n);
            recvOct += n;
            ahead.add(new Datagram(ring.ip(), ring.port(), ring.data(n)));
        } else {
            ahead.add(org.jbeam.io.PosixErrors.atom(n));
        }
        ring.prepare();
        try {
            readAvailable();
        } catch (IOException e) {
            readFailed(e);
        }
        updateInterest();
    }

    @Override
    public void ready(int revents) {}

    private Term payload(byte[] data) { return opts.binary ? EBitString.of(data) : UdpCodec.bytes(data, 0, data.length, ENil.NIL); }

    /** One queued datagram (non-blocking), counted in the socket's statistics; null if none is queued. */
    private Datagram receiveOne() throws IOException {
        buf.clear().limit(bufferSize());
        InetSocketAddress from = (InetSocketAddress) ch.receive(buf);
        if (from == null) return null;
        buf.flip();
        byte[] data = new byte[buf.remaining()];
        buf.get(data);
        recvCnt++;
        recvMax = Math.max(recvMax, data.length);
        recvOct += data.length;
        return new Datagram(UdpCodec.ipTuple(from), from.getPort(), data);
    }

    private void deliver(Datagram d) {
        Term payload = payload(d.data());
        Recv r = recvs.poll();
        if (r != null) {
            if (r.timer != null) r.timer.cancel(false);
            if (r.call != null) {
                r.call.complete(ETuple.of(EAtom.OK, ETuple.of(d.ip(), ESmall.of(d.port()), payload)));
                return;
            }
            byte[] a = UdpCodec.encodeAddr(d.ip(), d.port());
            async(r.caller, r.ref, ETuple.of(EAtom.OK, UdpCodec.bytes(a, 0, a.length, payload)));
            return;
        }
        vm.sendTo(port.owner, ETuple.of(UDP, port.id, d.ip(), ESmall.of(d.port()), payload));
        if (opts.active == InetOptions.ONCE) opts.active = InetOptions.PASSIVE;
        else if (opts.active == InetOptions.MULTI && --opts.activeN <= 0) {
            opts.active = InetOptions.PASSIVE;
            opts.activeN = 0;
            vm.sendTo(port.owner, ETuple.of(UDP_PASSIVE, port.id));
        }
    }

    /** A receive error (e.g. ICMP port unreachable on a connected socket): the first waiting recv gets it. */
    void readFailed(IOException e) {
        failed(EAtom.of(e instanceof java.net.PortUnreachableException ? "econnrefused" : InetCodec.errno(e)));
    }

    private void failed(EAtom reason) {
        Recv r = recvs.poll();
        if (r != null) {
            if (r.timer != null) r.timer.cancel(false);
            answer(r, ETuple.of(TcpIo.ERROR, reason));
        } else if (opts.active != InetOptions.PASSIVE) {
            vm.sendTo(port.owner, ETuple.of(UDP_ERROR, port.id, reason));
        }
    }

    void updateInterest() {
        if (ring != null) {
            if (wanted()) readAhead = true;
            ring.wantRecv(!closed && bound && (wanted() || readAhead && ahead.size() < AHEAD_MAX));
            return;
        }
        boolean want = !closed && bound && wanted();
        if (key == null) {
            // Registered lazily: a socket that never waits (one that only sends) closes at once, without
            // waiting for the selector thread to drop its key.
            if (!want) return;
            try {
                key = IoLoop.get().register(ch, this, SelectionKey.OP_READ);
            } catch (IOException e) {
                // closed meanwhile: nothing to wait for
            }
            return;
        }
        if (!key.isValid()) return;
        IoLoop.get().interest(key, want ? SelectionKey.OP_READ : 0);
    }

    @Override
    public synchronized void ready(SelectionKey k) {
        if (closed || !k.isValid()) return;
        try {
            if (k.isReadable()) readAvailable();
        } catch (IOException e) {
            readFailed(e);
        }
        updateInterest();
    }

    /** port_command: [Addr, AncLen:32, Anc, Data] (prim_inet:sendto); a connected socket ignores Addr. */
    public void output(ErlProcess caller, byte[] d) {
        EPid from = caller != null ? caller.pid : port.owner;
        vm.sendTo(from, ETuple.of(TcpIo.INET_REPLY, port.id, send(d)));
    }

    /** A port_command's work; returns the status its inet_reply carries (also prim_inet:send/3 done natively). */
    synchronized Term send(byte[] d) {
        Term status;
        try {
            int alen = UdpCodec.addrLen(d);
            if (alen < 0 || d.length < alen + 4) throw new IllegalArgumentException();
            int anc = InetCodec.i32(d, alen);
            int off = alen + 4 + anc;
            if (anc < 0 || off > d.length) throw new IllegalArgumentException();
            if (ch == null || closed) status = ETuple.of(TcpIo.ERROR, TcpIo.CLOSED);
            else status = sendData(connected ? null : InetCodec.decodeAddr(d, 0, family), ByteBuffer.wrap(d, off, d.length - off));
        } catch (IllegalArgumentException | java.net.UnknownHostException e) {
            status = ETuple.of(TcpIo.ERROR, EAtom.of("einval"));
        } catch (IOException e) {
            status = ETuple.of(TcpIo.ERROR, EAtom.of(e instanceof java.net.PortUnreachableException ? "econnrefused" : InetCodec.errno(e)));
        }
        return status;
    }

    /** Sends one datagram to {@code to} (null: the connected peer); ok. */
    private Term sendData(InetSocketAddress to, ByteBuffer data) throws IOException {
        if (!bound) { ch.bind(null); bound = true; updateInterest(); }
        int n = data.remaining();
        sendCnt++;
        sendMax = Math.max(sendMax, n);
        sendOct += n;
        // A full send buffer drops the datagram, as UDP may (erts would retry on EAGAIN).
        if (to == null) ch.write(data);
        else ch.send(data, to);
        return EAtom.OK;
    }

    private byte[] lastTo;
    private int lastToPort;
    private InetSocketAddress lastToAddr;

    /**
     * gen_udp:send(S, IP, Port, Data) done natively ({@link UdpNatives}): {@code ip} holds the address bytes
     * of the socket's family. The destination of the previous call is reused (an echo answers one peer).
     */
    synchronized Term sendTo(byte[] ip, int toPort, byte[] data) {
        if (ch == null || closed) return ETuple.of(TcpIo.ERROR, TcpIo.CLOSED);
        try {
            InetSocketAddress to = null;
            if (!connected) {
                if (toPort != lastToPort || !java.util.Arrays.equals(ip, lastTo)) {
                    lastToAddr = new InetSocketAddress(java.net.InetAddress.getByAddress(ip), toPort);
                    lastTo = ip;
                    lastToPort = toPort;
                }
                to = lastToAddr;
            }
            return sendData(to, ByteBuffer.wrap(data));
        } catch (java.net.UnknownHostException | IllegalArgumentException e) {
            return ETuple.of(TcpIo.ERROR, EAtom.of("einval"));
        } catch (IOException e) {
            return ETuple.of(TcpIo.ERROR, EAtom.of(e instanceof java.net.PortUnreachableException ? "econnrefused" : InetCodec.errno(e)));
        }
    }

    /** The port closed: pending recvs fail with {error, closed}, then the socket closes. */
    public void stop() {
        UdpRing rg;
        synchronized (this) {
            rg = ring;
            if (rg == null) { stopNio(); return; }
            closed = true;
            failRecvs();
            ahead.clear();
            DatagramChannel c = ch;
            rg.release(() -> SockPoll.closeQuietly(c));
        }
        // Outside the monitor: the ring thread may be waiting for it in received() before it can finish the release.
        rg.awaitReleased(SockPoll.uringOrNull());
    }

    private void failRecvs() {
        for (Recv r : recvs) {
            if (r.timer != null) r.timer.cancel(false);
            answer(r, ETuple.of(TcpIo.ERROR, TcpIo.CLOSED));
        }
        recvs.clear();
    }

    private void stopNio() {
        closed = true;
        failRecvs();
        if (key != null) {
            // A registered channel's fd is released only once the poll thread drops its key: wait, so that
            // the port is really free when close returns (a send to it right after sees econnrefused).
            key.cancel();
            IoLoop.get().awaitDeregistered(ch);
        }
        try {
            if (ch != null) ch.close();
        } catch (IOException e) {
            // closing anyway
        }
        if (key != null) IoLoop.get().wakeup();
    }
}
