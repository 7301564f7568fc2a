package org.jbeam.inet;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.Ports;
import org.jbeam.runtime.Runtime;
import org.jbeam.term.*;

/**
 * Emulation of erts' "udp_inet" driver (inet_drv.c, packet_inet_*) over a java.nio DatagramChannel: the
 * port_control requests prim_inet issues (open, bind, connect, recv, setopts/getopts, name/peer, getstat)
 * and the socket options; the datagrams themselves (receives, active-mode delivery, sendto, close) are
 * the work of {@link UdpIo}. State is guarded by this monitor.
 */
final class UdpInet extends UdpIo implements Ports.Driver {
    static final int PACKET_REQ_RECV = 60, TYPE_DGRAM = 2;
    /** The buffer option was given: recbuf no longer raises the driver buffer (inet_drv's bufsz_set). */
    private boolean bufferSet;

    UdpInet(Runtime vm, Ports.Port port) {
        super(vm, port);
        // inet_drv's initial buffer; inet_udp opens with {recbuf, 8192}, which raises it to 8192 (see socketOpt).
        opts.other.put(BUFFER, InetOptions.int32(MIN_BUFFER));
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

    @Override public long bytesIn() { return recvOct; }
    @Override public long bytesOut() { return sendOct; }
}
