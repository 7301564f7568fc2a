package org.jbeam.inet;

import org.jbeam.term.*;

/**
 * The end of a connected tcp_inet socket's input, as inet_drv.c's tcp_recv_closed and tcp_recv_error
 * report it: the peer closed (or reset) the connection, or a packet cannot be framed (EMSGSIZE).
 * Waiting recvs get the error, an active owner gets tcp_error and tcp_closed, then the socket closes
 * (exit_on_close) or stops reading. Split from {@link TcpIo}, whose delivery loop reaches these at
 * most once per connection; called with the TcpIo's monitor held.
 */
final class TcpInputEnd {
    private TcpInputEnd() {}

    /**
     * A packet that cannot be framed (invalid, or longer than packet_size or, for lines, the buffer):
     * erts' tcp_recv_error(EMSGSIZE), which a recv request or new input reports. The input is dropped;
     * a pending recv gets {error, emsgsize}, an active socket sends tcp_error and tcp_closed; then the
     * socket closes (exit_on_close) or stops reading. erts finds an error between two packets of one
     * read (at most a buffer's worth of bytes) in its delivery loop, which returns without a word: the
     * socket stalls until more input arrives. That is mimicked when the bytes the error needed were
     * within a buffer of the packets delivered before it. Returns true when the socket has closed.
     */
    static boolean packetError(TcpIo io, boolean recvWaiting, int consumed) {
        InetOptions opts = io.opts;
        if (!recvWaiting) {
            boolean lines = opts.packet == Packet.LINE || org.jbeam.packet.PacketLength.isHttp(opts.packet);
            long needed = lines ? (opts.packetSize != 0 ? opts.packetSize & 0xFFFFFFFFL : opts.buffer()) + 1 : 12;
            if (!io.freshInput || consumed > 0 && consumed + needed <= opts.buffer()) return false;
        }
        io.inLen = 0;
        io.freshInput = false;
        io.closeReported = true;
        if (recvWaiting) {
            io.failRecvs(EAtom.of("emsgsize"));
            if (opts.exitOnClose) { io.closeChannel(); return true; }
        } else {
            io.out.fail();
            io.vm.sendTo(io.port.owner, ETuple.of(EAtom.of("tcp_error"), io.port.id, EAtom.of("emsgsize")));
            io.vm.sendTo(io.port.owner, ETuple.of(TcpIo.TCP_CLOSED, io.port.id));
            if (opts.exitOnClose) { io.vm.ports.driverExit(io.port); return true; }
        }
        io.readEof = io.readShut = true;
        io.updateInterest();
        return true;
    }

    /**
     * The same for prim_inet:recv0 done natively ({@link TcpIo#recvDirect}), which has no recv queued:
     * erts' tcp_recv_error answers the request and closes. Returns the request's status.
     */
    static Term recvError(TcpIo io) {
        io.inLen = 0;
        io.closeReported = true;
        if (io.opts.exitOnClose) io.closeChannel();
        else io.readEof = io.readShut = true;
        return ETuple.of(TcpIo.ERROR, EAtom.of("emsgsize"));
    }

    /** tcp_recv_closed: the peer closed (or reset) the connection and the buffered data is delivered. */
    static void peerClosed(TcpIo io) {
        io.closeReported = true;
        io.inLen = 0;
        if (io.opts.active == InetOptions.PASSIVE) {
            io.failRecvs(TcpIo.CLOSED);
            if (io.opts.exitOnClose) io.closeChannel();
        } else {
            io.out.fail();
            io.vm.sendTo(io.port.owner, ETuple.of(TcpIo.TCP_CLOSED, io.port.id));
            if (io.opts.exitOnClose) io.vm.ports.driverExit(io.port);
        }
    }
}
