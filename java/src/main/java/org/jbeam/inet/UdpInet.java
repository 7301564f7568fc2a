package org.jbeam.inet;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
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
 * Emulation of erts' "udp_inet" driver (inet_drv.c, packet_inet_*) over a java.nio DatagramChannel: open,
 * bind, connect, name/peer, setopts/getopts, PACKET_REQ_RECV (answered by
 * {inet_async, S, Ref, {ok, [Family, P1, P0, IP.. | Data]}}), sendto via port_command ({inet_reply, S, _}),
 * and active-mode delivery ({udp, S, IP, Port, Data}, {udp_passive, S}). State is guarded by this monitor.
 *
 * <p>Datagrams arrive through the io_uring socket ring when that is the socket backend ({@link UdpRing}:
 * an IORING_OP_RECVMSG kept in flight, ADR 0040), else through readiness on the {@link IoLoop} selector
 * and a non-blocking receive. Sends are a non-blocking sendto on the caller's thread either way.
 */
final class UdpInet implements Ports.Driver, IoLoop.Handler, org.jbeam.io.PollRing.Listener {
    static final int PACKET_REQ_RECV = 60, TYPE_DGRAM = 2;
    static final EAtom UDP = EAtom.of("udp"), UDP_PASSIVE = EAtom.of("udp_passive"), UDP_ERROR = EAtom.of("udp_error");
    /** The driver's receive buffer (INET_LOPT_BUFFER): a longer datagram is truncated to it, as in erts. */
    private static final int BUFFER = 20, MIN_BUFFER = 1460, MAX_BUFFER = 65536;

    /** A pending recv: answered by an inet_async message, or by completing call (prim_inet:recvfrom0 done natively). */
    private record Recv(EPid caller, AsyncCall call, int ref, ScheduledFuture<?> timer) {}

    private final Runtime vm;
    private final Ports.Port port;
    private int family;
    private DatagramChannel ch;
    private SelectionKey key;
    private boolean bound, connected, closed;
    private InetOptions opts = new InetOptions();
    private final ArrayDeque<Recv> recvs = new ArrayDeque<>();
    private ByteBuffer buf = ByteBuffer.allocate(MAX_BUFFER);
    private boolean bufferSet;
    private int refs;
    /** io_uring receive (null: the NIO selector path). */
    private UdpRing ring;
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
    private long recvCnt, recvMax, recvOct, sendCnt, sendMax, sendOct;

    UdpInet(Runtime vm, Ports.Port port) {
        this.vm = vm;
        this.port = port;
        // inet_drv's initial buffer; inet_udp opens with {recbuf, 8192}, which raises it to 8192 (see socketOpt).
        opts.other.put(BUFFER, InetOptions.int32(MIN_BUFFER));
    }

    private int bufferSize() { return InetCodec.i32(opts.other.get(BUFFER), 0); }

    private int nextRef() { return refs = (refs + 1) & 0xFFFF; }

    private Term refReply(int ref) { return InetCodec.ok((byte) (ref >>> 8), (byte) ref); }

    private void async(EPid to, int ref, Term status) {
        vm.sendTo(to, ETuple.of(TcpIo.INET_ASYNC, port.id, ESmall.of(ref), status));
    }

    @Override
    public synchronized Term control(ErlProcess caller, int op, byte[] d) {
        int cmd = op - TcpInet.MAGIC;
        Term ifs = InetIfs.control(cmd, d);
        if (ifs != null) return ifs;
        try {
            return switch (cmd) {
                case TcpInet.REQ_OPEN -> open(d);
                case TcpInet.REQ_BIND -> bind(d);
                case TcpInet.REQ_CONNECT -> connect(caller, d);
                case PACKET_REQ_RECV -> recv(caller, d);
                case TcpInet.REQ_SETOPTS -> setopts(d);
                case TcpInet.REQ_GETOPTS -> {
                    kernelBufs();
                    byte[] r = opts.get(d, family == InetCodec.AF_INET6);
                    yield r == null ? InetCodec.error("einval") : InetCodec.ok(r);
                }
                case TcpInet.REQ_NAME -> ch == null || !bound ? InetCodec.error("einval") : InetCodec.ok(InetCodec.encodeAddr(ch.getLocalAddress()));
                case TcpInet.REQ_PEER -> ch == null || !connected ? InetCodec.error("enotconn") : InetCodec.ok(InetCodec.encodeAddr(ch.getRemoteAddress()));
                case TcpInet.REQ_GETSTAT -> InetCodec.ok(InetCodec.stats(d, recvCnt, recvMax, recvOct, sendCnt, sendMax, sendOct, 0));
                // Not the real name: kernel's inet_config would then resolve it natively at boot, which needs
                // the inet_gethost port program (spawn_executable ports are not emulated yet) and halts.
                // This is the name inet_config falls back to when no udp socket can be opened.
                case TcpInet.REQ_GETHOSTNAME -> InetCodec.ok(InetCodec.hostname());
                case TcpInet.REQ_SUBSCRIBE -> InetCodec.ok((byte) 1, (byte) 0, (byte) 0, (byte) 0, (byte) 0);
                case TcpInet.REQ_GETFD -> TcpInet.fdReply(ch);
                case TcpInet.REQ_GETTYPE -> {
                    byte[] r = new byte[8];
                    InetCodec.put32(r, 0, family);
                    InetCodec.put32(r, 4, TYPE_DGRAM);
                    yield InetCodec.ok(r);
                }
                case TcpInet.REQ_GETSTATUS -> {
                    byte[] r = new byte[4];
                    InetCodec.put32(r, 0, (ch != null ? 1 : 0) | (bound ? 2 : 0) | (connected ? 4 : 0));
                    yield InetCodec.ok(r);
                }
                case TcpInet.REQ_IGNOREFD -> InetCodec.ok();
                default -> InetCodec.error("einval");
            };
        } catch (IOException e) {
            return InetCodec.error(InetCodec.errno(e));
        }
    }

    private Term open(byte[] d) throws IOException {
        if (d.length < 2 || d[1] != TYPE_DGRAM || ch != null) return InetCodec.error("einval");
        if (d[0] != InetCodec.AF_INET && d[0] != InetCodec.AF_INET6) return InetCodec.error("eafnosupport");
        family = d[0];
        ch = DatagramChannel.open(family == InetCodec.AF_INET6 ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        for (var e : opts.other.entrySet()) if (e.getKey() != BUFFER) socketOpt(e.getKey(), e.getValue());
        org.jbeam.io.PollRing pr = SockPoll.uringOrNull();
        if (pr != null) {
            ch.configureBlocking(false);
            ring = new UdpRing(pr, SockPoll.fdOf(ch), this);
        } else ch.configureBlocking(false);     // registered with the selector when it first waits (updateInterest)
        return InetCodec.ok();
    }

    private Term bind(byte[] d) throws IOException {
        if (ch == null) return InetCodec.error("einval");
        ch.bind(InetCodec.decodeAddr(d, 0, family));
        bound = true;
        updateInterest();
        int p = ((InetSocketAddress) ch.getLocalAddress()).getPort();
        return InetCodec.ok((byte) (p >>> 8), (byte) p);
    }

    /** UDP connect is synchronous: the reply carries a ref and the async answer follows at once. */
    private Term connect(ErlProcess caller, byte[] d) throws IOException {
        if (ch == null) return InetCodec.error("einval");
        if (d.length <= 4) {
            if (connected) ch.disconnect();
            connected = false;
            return InetCodec.ok();
        }
        InetSocketAddress a = InetCodec.decodeAddr(d, 4, family);
        if (connected) ch.disconnect();
        ch.connect(a);
        connected = true;
        bound = true;
        int ref = nextRef();
        async(caller.pid, ref, EAtom.OK);
        return refReply(ref);
    }

    private Term recv(ErlProcess caller, byte[] d) {
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

    private Term setopts(byte[] d) {
        opts.activeChanged = false;
        opts.passiveDue = false;
        if (!opts.set(d, this::socketOpt)) return InetCodec.error("einval");
        if (opts.passiveDue) vm.sendTo(port.owner, ETuple.of(UDP_PASSIVE, port.id));
        if (ch != null && !closed) {
            try {
                readAvailable();
            } catch (IOException e) {
                readFailed(e);
            }
            updateInterest();
        }
        return InetCodec.ok();
    }

    private void socketOpt(int code, byte[] v) {
        if (v.length < 4) return;
        int x = InetCodec.i32(v, 0);
        if (code == BUFFER) {
            bufferSet = true;
            opts.other.put(BUFFER, InetOptions.int32(Math.max(1, Math.min(x, MAX_BUFFER))));
            return;
        }
        // recbuf also grows the driver buffer (never shrinks it) unless buffer was given, as inet_drv does.
        if (code == InetOptions.RCVBUF && !bufferSet) opts.other.put(BUFFER, InetOptions.int32(Math.max(bufferSize(), Math.min(x, MAX_BUFFER))));
        if (ch == null) return;
        try {
            switch (code) {
                case InetOptions.REUSEADDR -> ch.setOption(StandardSocketOptions.SO_REUSEADDR, x != 0);
                case InetOptions.SNDBUF -> ch.setOption(StandardSocketOptions.SO_SNDBUF, x);
                case InetOptions.RCVBUF -> ch.setOption(StandardSocketOptions.SO_RCVBUF, x);
                case 4 -> ch.setOption(StandardSocketOptions.SO_BROADCAST, x != 0);
                default -> { }
            }
        } catch (IOException | RuntimeException e) {
            // unsupported here: the value is still remembered for getopts
        }
    }

    /** getopts reads recbuf and sndbuf from the socket, as inet_drv does (Linux reports twice what was set). */
    private void kernelBufs() {
        if (ch == null || closed) return;
        try {
            // The JDK halves what getsockopt returns for these on Linux (to give back what was set): undone here.
            opts.other.put(InetOptions.RCVBUF, InetOptions.int32(2L * ch.getOption(StandardSocketOptions.SO_RCVBUF)));
            opts.other.put(InetOptions.SNDBUF, InetOptions.int32(2L * ch.getOption(StandardSocketOptions.SO_SNDBUF)));
        } catch (IOException | RuntimeException e) {
            // keep the remembered values
        }
    }

    /** Whether someone wants datagrams now: a pending recv or an active mode. */
    private boolean wanted() { return !recvs.isEmpty() || opts.active != InetOptions.PASSIVE; }

    /**
     * Hands datagrams to a waiting recv or the active owner while someone wants them: those the ring
     * received first, then (NIO path) what a non-blocking receive finds.
     */
    private void readAvailable() throws IOException {
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
    private void readFailed(IOException e) {
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

    private void updateInterest() {
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
    @Override
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

    @Override public long bytesIn() { return recvOct; }
    @Override public long bytesOut() { return sendOct; }

    @Override
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
