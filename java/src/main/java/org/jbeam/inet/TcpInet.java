package org.jbeam.inet;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;

import org.jbeam.runtime.AsyncCall;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * Emulation of erts' "tcp_inet" driver (inet_drv.c) over java.nio: the port_control requests prim_inet
 * issues (open, bind, listen, accept, connect, recv, setopts/getopts, name/peer, shutdown, getstat),
 * port_command output with {inet_reply, S, _}, and active-mode delivery ({tcp, S, Data}, {tcp_closed, S},
 * {tcp_passive, S}). All state is guarded by this object's monitor; readiness comes from {@link IoLoop}.
 */
final class TcpInet extends TcpIo implements Ports.Driver, org.jbeam.runtime.DistPort {
    static final int MAGIC = 0x03f1a300;
    static final int REQ_OPEN = 1, REQ_CONNECT = 3, REQ_PEER = 4, REQ_NAME = 5, REQ_BIND = 6, REQ_SETOPTS = 7, REQ_GETOPTS = 8,
            REQ_GETSTAT = 11, REQ_GETHOSTNAME = 12, REQ_GETFD = 14, REQ_GETTYPE = 15, REQ_GETSTATUS = 16, REQ_SUBSCRIBE = 24,
            REQ_ACCEPT = 26, REQ_LISTEN = 27, REQ_IGNOREFD = 28, TCP_REQ_RECV = 42, TCP_REQ_SHUTDOWN = 44, TCP_REQ_SENDFILE = 45;

    private record Accept(EPid caller, int ref, ScheduledFuture<?> timer) {}

    private final ArrayDeque<Accept> accepts = new ArrayDeque<>();
    private EPid connectCaller;
    private int connectRef;
    private ScheduledFuture<?> connectTimer;
    /**
     * The connect was asked for by {@link #connectDirect} (prim_inet:connect/4 done natively): its
     * status goes to connectCall, or to connectNow while the request itself is still running,
     * instead of an inet_async message to connectCaller.
     */
    private boolean connectDirect;
    private AsyncCall connectCall;
    private Term connectNow;
    private InetSocketAddress bound;

    TcpInet(Runtime vm, Ports.Port port) { super(vm, port); }

    @Override
    public synchronized Term control(ErlProcess caller, int op, byte[] d) {
        int cmd = op - MAGIC;
        Term ifs = InetIfs.control(cmd, d);
        if (ifs != null) return ifs;
        try {
            return switch (cmd) {
                case REQ_OPEN -> open(d);
                case REQ_BIND -> bind(d);
                case REQ_LISTEN -> listen(d);
                case REQ_ACCEPT -> accept(caller, d);
                case REQ_CONNECT -> connect(caller, d);
                case TCP_REQ_RECV -> recv(caller, d);
                case REQ_SETOPTS -> setopts(d);
                case REQ_GETOPTS -> {
                    byte[] r = opts.get(d, family == InetCodec.AF_INET6);
                    yield r == null ? InetCodec.error("einval") : InetCodec.ok(r);
                }
                case REQ_NAME -> {
                    java.net.SocketAddress a = srv != null ? srv.getLocalAddress() : ch != null ? ch.getLocalAddress() : null;
                    yield a == null ? InetCodec.error("einval") : InetCodec.ok(InetCodec.encodeAddr(a));
                }
                case REQ_PEER -> {
                    java.net.SocketAddress a = ch != null && connected && !closedDone ? ch.getRemoteAddress() : null;
                    yield a == null ? InetCodec.error("enotconn") : InetCodec.ok(InetCodec.encodeAddr(a));
                }
                case TCP_REQ_SHUTDOWN -> shutdown(d);
                case TCP_REQ_SENDFILE -> out.startSendfile(caller, d);
                case REQ_GETSTAT -> InetCodec.ok(stats(d));
                case REQ_SUBSCRIBE -> InetCodec.ok((byte) 1, (byte) 0, (byte) 0, (byte) 0, (byte) 0);
                case REQ_GETHOSTNAME -> InetCodec.ok(InetCodec.hostname());
                case REQ_GETTYPE -> {
                    byte[] r = new byte[8];
                    InetCodec.put32(r, 0, family);
                    InetCodec.put32(r, 4, 1);
                    yield InetCodec.ok(r);
                }
                case REQ_GETSTATUS -> {
                    int f = 1 | (bound != null ? 2 : 0) | (connected ? 4 : 0) | (srv != null ? 8 : 0) | (connectCaller != null ? 16 : 0)
                            | (!accepts.isEmpty() ? 32 : 0);
                    byte[] r = new byte[4];
                    InetCodec.put32(r, 0, f);
                    yield InetCodec.ok(r);
                }
                case REQ_IGNOREFD -> InetCodec.ok();
                case REQ_GETFD -> fdReply(srv != null ? srv : ch);
                default -> InetCodec.error("einval");
            };
        } catch (IOException e) {
            return InetCodec.error(InetCodec.errno(e));
        }
    }

    /**
     * INET_REQ_GETFD (prim_inet:getfd/1): the channel's OS descriptor, big-endian, for socket:open/1
     * and {fd, N} options; einval before there is one or where the JDK hides it.
     */
    static Term fdReply(java.nio.channels.SelectableChannel c) {
        if (c == null) return InetCodec.error("einval");
        int fd;
        try { fd = SockPoll.fdOf(c); } catch (RuntimeException e) { return InetCodec.error("einval"); }
        byte[] r = new byte[4];
        InetCodec.put32(r, 0, fd);
        return InetCodec.ok(r);
    }

    private ProtocolFamily pf() { return family == InetCodec.AF_INET6 ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET; }

    private Term open(byte[] d) {
        if (d.length < 2 || d[1] != 1) return InetCodec.error("einval");
        if (d[0] != InetCodec.AF_INET && d[0] != InetCodec.AF_INET6) return InetCodec.error("eafnosupport");
        family = d[0];
        return InetCodec.ok();
    }

    private Term bind(byte[] d) throws IOException {
        if (family == 0) return InetCodec.error("einval");
        InetSocketAddress a = InetCodec.decodeAddr(d, 0, family);
        if (ch == null) {
            ch = SocketChannel.open(pf());
            applySocketOpts();
        }
        ch.bind(a);
        bound = (InetSocketAddress) ch.getLocalAddress();
        int p = bound.getPort();
        return InetCodec.ok((byte) (p >>> 8), (byte) p);
    }

    private Term listen(byte[] d) throws IOException {
        if (family == 0 || connected) return InetCodec.error("einval");
        int backlog = d.length >= 2 ? InetCodec.u16(d, 0) : 5;
        InetSocketAddress a = bound;
        if (a == null) a = InetCodec.decodeAddr(new byte[] {InetCodec.AF_ANY, 0, 0}, 0, family);
        if (ch != null) { ch.close(); ch = null; }
        srv = ServerSocketChannel.open(pf());
        byte[] ra = opts.other.get(InetOptions.REUSEADDR);
        srv.setOption(StandardSocketOptions.SO_REUSEADDR, ra != null && InetCodec.i32(ra, 0) != 0);
        srv.bind(a, Math.max(backlog, 1));
        bound = (InetSocketAddress) srv.getLocalAddress();
        key = SockPoll.get().register(srv, this, 0);
        return InetCodec.ok();
    }

    private Term accept(ErlProcess caller, byte[] d) throws IOException {
        if (srv == null) return InetCodec.error("einval");
        int time = InetCodec.i32(d, 0);
        int ref = nextRef();
        ScheduledFuture<?> timer = time >= 0 ? InetTimers.after(time, () -> acceptTimeout(ref)) : null;
        Accept mine = new Accept(caller.pid, ref, timer);
        accepts.add(mine);
        String failed = doAccept(mine);
        return failed != null ? InetCodec.error(failed) : refReply(ref);
    }

    private synchronized void acceptTimeout(int ref) {
        for (Accept a : accepts) {
            if (a.ref == ref) {
                accepts.remove(a);
                async(a.caller, a.ref, ETuple.of(ERROR, TIMEOUT));
                updateInterest();
                return;
            }
        }
    }

    /**
     * Hands queued connections to waiting acceptors in order. An accept that fails for another
     * reason than "none pending" (emfile, enfile, enobufs) fails the first waiter only, as
     * inet_drv's accept does, and leaves the connection in the backlog for a later accept: the
     * error is returned to {@code sync} (the acceptor whose request is being handled, as the
     * request's own error) or sent to whoever waits first. Returns that synchronous error, if any.
     */
    private String doAccept(Accept sync) throws IOException {
        while (!accepts.isEmpty()) {
            SocketChannel sc;
            try {
                sc = srv.accept();
            } catch (java.nio.channels.ClosedChannelException e) {
                throw e;
            } catch (IOException e) {
                Accept a = accepts.poll();
                if (a.timer != null) a.timer.cancel(false);
                updateInterest();
                String reason = InetCodec.errno(e);
                if (a == sync) return reason;
                async(a.caller, a.ref, ETuple.of(ERROR, EAtom.of(reason)));
                return null;
            }
            if (sc == null) break;
            Accept a = accepts.poll();
            if (a.timer != null) a.timer.cancel(false);
            async(a.caller, a.ref, ETuple.of(EAtom.OK, child(a.caller, sc)));
        }
        updateInterest();
        return null;
    }

    /** The port of an accepted connection, owned by {@code owner}, with this listen socket's options. */
    private EPort child(EPid owner, SocketChannel sc) throws IOException {
        TcpInet[] child = new TcpInet[1];
        EPort np = vm.ports.openDriver(owner, "tcp_inet", pt -> child[0] = new TcpInet(vm, pt));
        child[0].adopt(sc, family, opts);
        return np;
    }

    /**
     * prim_inet:accept/3's fast path (see {@link InetNatives}): when no acceptor waits and a connection
     * is already queued (the acceptor of a busy server finds one nearly every time, ADR 0039), its
     * port, as the INET_REQ_ACCEPT request would have answered it by message; else null, and the
     * request goes the usual way.
     */
    synchronized EPort acceptNow(ErlProcess caller) {
        if (srv == null || closedDone || !accepts.isEmpty()) return null;
        try {
            SocketChannel sc = srv.accept();
            return sc == null ? null : child(caller.pid, sc);
        } catch (IOException e) {
            return null;    // the request reports it
        }
    }

    private void adopt(SocketChannel sc, int fam, InetOptions parent) throws IOException {
        synchronized (this) {
            family = fam;
            opts = parent.clone();
            opts.activeChanged = false;
            opts.passiveDue = false;
            ch = sc;
            connected = true;
            applySocketOpts();
            sc.configureBlocking(false);
            updateInterest();
        }
    }

    private Term connect(ErlProcess caller, byte[] d) throws IOException {
        if (family == 0 || srv != null || connected || connectCaller != null) return InetCodec.error(connected ? "eisconn" : "einval");
        InetSocketAddress a = InetCodec.decodeAddr(d, 4, family);
        // An IPv6 address for an inet socket: the connect(2) of inet_drv fails so (NIO would throw).
        if (family == InetCodec.AF_INET && a.getAddress() instanceof java.net.Inet6Address) return InetCodec.error("eafnosupport");
        return beginConnect(caller.pid, a, InetCodec.i32(d, 0));
    }

    /** The socket's address family (inet_int.hrl's INET_AF_*), 0 before the open request. */
    synchronized int family() { return family; }

    /**
     * prim_inet:connect/4 done natively (see {@link InetNatives}): the same request and status as its
     * port_control(INET_REQ_CONNECT) followed by the receive of {inet_async, S, Ref, Status}, with no
     * message: the status at once when the connect fails or completes within the request, else the
     * caller suspends until the poll thread (or the timeout) completes it.
     */
    synchronized Term connectDirect(ErlProcess caller, InetSocketAddress a, int time) {
        if (family == 0 || srv != null || connected || connectCaller != null) return ETuple.of(ERROR, EAtom.of(connected ? "eisconn" : "einval"));
        connectDirect = true;
        connectNow = null;
        try {
            beginConnect(caller.pid, a, time);
        } catch (IOException e) {
            connectDirect = false;
            return ETuple.of(ERROR, EAtom.of(InetCodec.errno(e)));
        }
        Term now = connectNow;
        if (now != null) { connectNow = null; return now; }
        connectCall = caller.beginAsync();
        return org.jbeam.interp.Trap.await(connectCall);
    }

    private Term beginConnect(EPid caller, InetSocketAddress a, int time) throws IOException {
        if (ch == null) {
            ch = SocketChannel.open(pf());
            applySocketOpts();
        }
        int ref = nextRef();
        ch.configureBlocking(false);
        connectCaller = caller;
        connectRef = ref;
        try {
            if (ch.connect(a)) connectDone(null);
            else {
                if (time >= 0) connectTimer = InetTimers.after(time, () -> connectTimeout(ref));
                updateInterest();
            }
        } catch (IOException e) {
            connectDone(e);
        }
        return refReply(ref);
    }

    private synchronized void connectTimeout(int ref) {
        if (connectCaller == null || connectRef != ref) return;
        EPid c = connectCaller;
        connectCaller = null;
        closeChannel();
        connectAnswer(c, ref, ETuple.of(ERROR, TIMEOUT));
    }

    /** The connect's status to whoever waits for it: an inet_async message, or the natively suspended call. */
    private void connectAnswer(EPid c, int ref, Term status) {
        if (!connectDirect) { async(c, ref, status); return; }
        connectDirect = false;
        AsyncCall k = connectCall;
        connectCall = null;
        if (k != null) k.complete(status);
        else connectNow = status;
    }

    private void connectDone(IOException e) {
        EPid c = connectCaller;
        connectCaller = null;
        if (connectTimer != null) connectTimer.cancel(false);
        if (e == null) {
            connected = true;
            connectAnswer(c, connectRef, EAtom.OK);
            updateInterest();
        } else {
            closeChannel();
            connectAnswer(c, connectRef, ETuple.of(ERROR, EAtom.of(InetCodec.errno(e))));
        }
    }

    @Override
    public synchronized void ready(int ops) {
        if (closedDone && ch == null && srv == null) return;
        try {
            if (live() && (ops & SelectionKey.OP_ACCEPT) != 0) doAccept(null);
            if (live() && (ops & SelectionKey.OP_CONNECT) != 0 && connectCaller != null) {
                try {
                    if (ch.finishConnect()) connectDone(null);
                } catch (IOException e) {
                    connectDone(e);
                }
            }
            if (live() && (ops & SelectionKey.OP_WRITE) != 0) out.flush();
            if (live() && (ops & SelectionKey.OP_READ) != 0) readReady();
        } catch (IOException e) {
            ioFailed(e);
        }
        if (!port.isClosed()) deliver();
    }

    /** Still watched: a step of ready() may have closed the socket (its watch is then released). */
    private boolean live() { return key != null && key.isValid() && !closedDone; }

    @Override
    protected int extraInterest() {
        int ops = 0;
        if (srv != null && !accepts.isEmpty()) ops |= SelectionKey.OP_ACCEPT;
        if (connectCaller != null) ops |= SelectionKey.OP_CONNECT;
        return ops;
    }

    @Override public long bytesIn() { return recvOct; }
    @Override public long bytesOut() { return out.oct; }

    @Override
    public synchronized void stop() {
        for (Accept a : accepts) {
            if (a.timer != null) a.timer.cancel(false);
            async(a.caller, a.ref, ETuple.of(ERROR, CLOSED));
        }
        accepts.clear();
        if (connectTimer != null) connectTimer.cancel(false);
        // inet_drv's tcp_close_check: a connect under way answers {error, closed}.
        if (connectCaller != null) {
            EPid c = connectCaller;
            connectCaller = null;
            connectAnswer(c, connectRef, ETuple.of(ERROR, CLOSED));
        }
        stopIo();
    }

    private Term refReply(int ref) { return InetCodec.ok((byte) (ref >>> 8), (byte) ref); }
}
