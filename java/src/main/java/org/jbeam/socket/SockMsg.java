package org.jbeam.socket;

import java.io.ByteArrayOutputStream;

import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.ECons;
import org.jbeam.term.EMap;
import org.jbeam.term.EPid;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * sendmsg / recvmsg of the socket NIF in their message form ({@code #{addr, iov, ctrl, flags}})
 * without ancillary data: the I/O vector is sent as one buffer with sendto (the same datagram or
 * byte stream a writev would give, and the byte count prim_socket needs for the rest of the vector),
 * and a receive is recvfrom into one buffer, with the real length of a datagram (MSG_TRUNC) telling
 * whether it was cut. Control messages are not supported: a non-empty {@code ctrl} is
 * {@code {error, enotsup}} and received messages have {@code ctrl => []}.
 */
final class SockMsg {
    private SockMsg() {}

    static final EAtom ADDR = EAtom.of("addr"), IOV = EAtom.of("iov"), CTRL = EAtom.of("ctrl"), FLAGS = EAtom.of("flags"),
            TRUNC = EAtom.of("trunc");

    /** nif_sendmsg(Sock, EMsg, EFlags, Handle, IOV). */
    static Term send(Sock s, EPid pid, Term msg, int flags, Term handle, Term iov) {
        if (!(msg instanceof EMap m)) throw org.jbeam.runtime.ErlangException.badarg();
        Term ctrl = m.get(CTRL);
        if (ctrl != null && ctrl != org.jbeam.term.ENil.NIL) return ETuple.of(EAtom.ERROR, EAtom.of("enotsup"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Term t = iov;
        while (t instanceof ECons c) {
            if (!(c.head instanceof EBitString b) || b.extraBits() != 0) return ETuple.of(SockOps.INVALID, IOV);
            out.write(b.array(), b.arrayOffset(), b.byteSize());
            t = c.tail;
        }
        if (!(t instanceof org.jbeam.term.ENil)) return ETuple.of(SockOps.INVALID, IOV);
        Term addr = m.get(ADDR);
        Term r = SockOps.send(s, pid, EBitString.of(out.toByteArray()), addr, flags, handle);
        return r == SockOps.INVALID_SOCKADDR ? ETuple.of(SockOps.INVALID, ADDR) : r;
    }

    /** The map a recvmsg answers: the sender's address (when the socket reports one), the data, no control messages. */
    static Term received(EBitString data, Term addr, boolean trunc) {
        EMap m = EMap.EMPTY.put(CTRL, ECons.of()).put(FLAGS, trunc ? ECons.of(TRUNC) : ECons.of()).put(IOV, ECons.of(data));
        return addr != null ? m.put(ADDR, addr) : m;
    }
}
