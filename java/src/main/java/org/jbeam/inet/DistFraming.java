package org.jbeam.inet;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import org.jbeam.runtime.DistPort;
import org.jbeam.term.ETuple;

/**
 * The receiving side of a tcp socket that carries a distribution connection (erlang:setnode/3):
 * length-prefixed packets (dist_util sets packet 4) framed out of the socket's receive buffer and
 * handed to the distribution layer in order. A packet of at least {@link #BIG_PACKET} bytes is
 * received into an array of its own (ADR 0064): the socket's bytes are copied once (into it), the
 * receive buffer neither grows to the packet's size nor shifts it, and the decoded message's large
 * binaries view the array instead of copying out of it (as erts makes them sub-binaries of the
 * received buffer). Called with the {@link TcpIo}'s monitor held.
 */
final class DistFraming {
    static final int BIG_PACKET = 64 * 1024;

    final DistPort.Receiver receiver;
    private final TcpIo io;
    /** The large packet being received, and how much of it has arrived. */
    private byte[] big;
    private int bigFill;

    DistFraming(TcpIo io, DistPort.Receiver receiver) {
        this.io = io;
        this.receiver = receiver;
    }

    /** A large packet is under way and incomplete: the socket's next bytes belong to it (they precede any in the buffer). */
    boolean takesBytes() { return big != null && bigFill < big.length; }

    /** The room left in the large packet under way, for a read straight into it. */
    ByteBuffer room() { return ByteBuffer.wrap(big, bigFill, big.length - bigFill); }

    /** {@code n} bytes were read into {@link #room()}. */
    void filled(int n) { bigFill += n; }

    /**
     * Copies the bytes of a ring completion that belong to a large packet under way (the receive
     * buffer is empty meanwhile) and delivers it once complete; returns how many bytes it took, the
     * rest going to the receive buffer.
     */
    int take(MemorySegment data, int n) {
        int at = 0;
        while (takesBytes() && at < n) {
            int k = Math.min(n - at, big.length - bigFill);
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, at, big, bigFill, k);
            bigFill += k;
            at += k;
            frame();
        }
        return at;
    }

    /** The connection failed or closed: a partial large packet is dropped. */
    void drop() { big = null; }

    /** Delivery on a distribution socket: every complete packet goes on; a close tells the layer and the owner. */
    void deliver() {
        frame();
        if (io.readEof && !io.closeReported) {
            io.closeReported = true;
            io.inLen = 0;
            big = null;
            io.out.fail();
            io.vm.sendTo(io.port.owner, ETuple.of(TcpIo.TCP_CLOSED, io.port.id));
            receiver.closed(null);
        }
        io.updateInterest();
    }

    /**
     * Hands the complete packets received to the distribution layer, in order: a large one being
     * assembled in its own array first (the bytes in the buffer follow it), then those in the
     * buffer; an incomplete large one moves to an array of its own.
     */
    void frame() {
        if (io.port.isClosed() || io.closedDone) return;
        if (big != null) {
            int take = Math.min(io.inLen, big.length - bigFill);
            if (take > 0) { System.arraycopy(io.in, 0, big, bigFill, take); bigFill += take; io.consume(take); }
            if (bigFill == big.length) {
                byte[] p = big;
                big = null;
                io.recvCnt++;
                receiver.packet(p, 0, p.length, true);
            }
        }
        // Packets taken in place; the buffer shifts once per batch, not once per packet (a full
        // read-ahead holds thousands of small messages).
        int packet = io.opts.packet;
        int hl = packet == Packet.PB_1 ? 1 : packet == Packet.PB_2 ? 2 : 4, off = 0;
        while (big == null && io.inLen - off >= hl) {
            long n = 0;
            for (int i = 0; i < hl; i++) n = (n << 8) | (io.in[off + i] & 0xFF);
            if (io.inLen - off - hl < n) {
                if (n >= BIG_PACKET) {
                    big = new byte[(int) n];
                    bigFill = io.inLen - off - hl;
                    System.arraycopy(io.in, off + hl, big, 0, bigFill);
                    off = io.inLen;
                } else if (off == 0 && n + hl > io.in.length) io.in = java.util.Arrays.copyOf(io.in, (int) (n + hl));
                break;
            }
            io.recvCnt++;
            receiver.packet(io.in, off + hl, (int) n, false);
            off += hl + (int) n;
        }
        if (off > 0) io.consume(off);
    }
}
