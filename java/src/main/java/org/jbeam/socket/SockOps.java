package org.jbeam.socket;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.libc.Sockets;
import org.jbeam.io.PosixErrors;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.EAtom;
import org.jbeam.term.EBitString;
import org.jbeam.term.EPid;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The data-path NIFs of prim_socket on a {@link Sock}: every call is one non-blocking system call on
 * the caller's thread, answered with prim_socket_nif.c's result shapes: {@code ok}, {@code {ok, _}},
 * {@code select} / {@code {select, _}} (the caller is now the current operation and will get a select
 * message), {@code {error, Posix}}, {@code {error, closed}} once the socket is closed. A call with the
 * handle {@code zero} (a timeout of 0 in socket.erl) never waits: recv answers {@code ok} for
 * "nothing there".
 */
final class SockOps {
    private SockOps() {}

    static final EAtom SELECT = Sock.SELECT, ZERO = EAtom.of("zero"), INVALID = EAtom.of("invalid"),
            SOCKADDR = EAtom.of("sockaddr"), ALREADY = EAtom.of("already"), SELECT_SENT = EAtom.of("select_sent"),
            NOT_FOUND = EAtom.of("not_found");

    static ETuple error(int negErrno) { return ETuple.of(EAtom.ERROR, PosixErrors.atom(negErrno)); }
    static final ETuple CLOSED = ETuple.of(EAtom.ERROR, Sock.CLOSED);
    static final ETuple INVALID_SOCKADDR = ETuple.of(INVALID, SOCKADDR);

    // ---- connection set-up ----

    static Term bind(Sock s, Term addr) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment sa = SockAddrs.encode(addr, a);
            if (sa == null) return INVALID_SOCKADDR;
            synchronized (s) {
                if (s.closed) return CLOSED;
                int r = Libc.bind(s.fd, sa, (int) sa.byteSize());
                if (r < 0) return error(r);
                s.bound = true;
                return EAtom.OK;
            }
        }
    }

    static Term listen(Sock s, int backlog) {
        synchronized (s) {
            if (s.closed) return CLOSED;
            int r = Libc.listen(s.fd, backlog);
            if (r < 0) return error(r);
            s.listening = true;
            return EAtom.OK;
        }
    }

    static Term connect(Sock s, EPid pid, Term handle, Term addr) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment sa = SockAddrs.encode(addr, a);
            synchronized (s) {
                if (s.closed) return CLOSED;
                if (s.connecting) {
                    // The connector calling again after its select message (gen_tcp_socket does):
                    // the outcome of the connect in progress, or another wait if it is not done.
                    if (s.connector == null || !s.connector.pid.equals(pid)) return ETuple.of(EAtom.ERROR, ALREADY);
                    return connectAgain(s, pid, handle);
                }
                if (sa == null) return INVALID_SOCKADDR;
                int r = Libc.connect(s.fd, sa, (int) sa.byteSize());
                if (r == 0) {
                    s.connected = true;
                    return EAtom.OK;
                }
                if (r != -Errno.EINPROGRESS) return error(r);
                s.connecting = true;
                s.connector = new Sock.Op(pid, handle);
                s.arm(s.connector, false);
                return SELECT;
            }
        }
    }

    private static Term connectAgain(Sock s, EPid pid, Term handle) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment sa = a.allocate(SockAddrs.STORAGE), len = a.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, SockAddrs.STORAGE);
            if (Libc.getpeername(s.fd, sa, len) == 0) {
                s.connecting = false;
                s.connector = null;
                s.connected = true;
                return EAtom.OK;
            }
        }
        int err = soError(s);
        if (err != 0) {
            s.connecting = false;
            s.connector = null;
            return error(-err);
        }
        s.connector = new Sock.Op(pid, handle);
        s.arm(s.connector, false);
        return SELECT;
    }

    /** SO_ERROR of the socket (positive errno, 0 for none). */
    private static int soError(Sock s) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT), len = a.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, 4);
            int r = Libc.getsockopt(s.fd, Sockets.SOL_SOCKET, 4 /* SO_ERROR */, v, len);
            return r < 0 ? -r : v.get(JAVA_INT, 0);
        }
    }

    /** nif_connect/1: the outcome of a connect that answered select (SO_ERROR). */
    static Term connectDone(Sock s) {
        synchronized (s) {
            if (s.closed) return CLOSED;
            if (!s.connecting) return ETuple.of(EAtom.ERROR, ETuple.of(INVALID, EAtom.of("state")));
            s.connecting = false;
            s.connector = null;
            int err = soError(s);
            if (err != 0) return error(-err);
            s.connected = true;
            return EAtom.OK;
        }
    }

    static Term accept(Sock s, ErlProcess p, Term handle) {
        synchronized (s) {
            if (s.closed) return CLOSED;
            if (s.mustQueue(s.acceptor, s.acceptors, p.pid, handle)) return SELECT;
            s.counters.accTries++;
            int fd = Libc.accept4(s.fd, MemorySegment.NULL, MemorySegment.NULL, Sockets.SOCK_NONBLOCK | Sockets.SOCK_CLOEXEC);
            if (fd == -Errno.EAGAIN) {
                s.counters.accWaits++;
                s.acceptor = new Sock.Op(p.pid, handle);
                s.arm(s.acceptor, true);
                return SELECT;
            }
            if (s.acceptor != null && s.acceptor.pid.equals(p.pid)) s.acceptor = s.next(s.acceptors, true);
            if (fd < 0) {
                s.counters.accFails++;
                return error(fd);
            }
            s.counters.accSuccess++;
            Sock c = new Sock(s.vm, fd, s.domain, s.type, s.protocol, p.pid, s.useRegistry);
            c.connected = true;
            return ETuple.of(EAtom.OK, c.ref);
        }
    }

    // ---- sending ----

    /** nif_send / nif_sendto ({@code dest} null for send). */
    static Term send(Sock s, EPid pid, EBitString data, Term dest, int flags, Term handle) {
        Scratch sc = Scratch.get();
        MemorySegment sa = MemorySegment.NULL;
        if (dest != null) {
            sa = SockAddrs.encode(dest, sc.addrAlloc);
            if (sa == null) return INVALID_SOCKADDR;
        }
        int len = data.byteSize();
        MemorySegment buf = sc.data(len);
        try {
            MemorySegment.copy(data.array(), data.arrayOffset(), buf, JAVA_BYTE, 0, len);
            synchronized (s) {
                if (s.closed) return CLOSED;
                if (s.mustQueue(s.writer, s.writers, pid, handle)) return SELECT;
                s.counters.writeTries++;
                long n = Libc.sendto(s.fd, buf, len, flags | Sockets.MSG_NOSIGNAL | Sockets.MSG_DONTWAIT,
                        sa, sa == MemorySegment.NULL ? 0 : (int) sa.byteSize());
                if (n == len) {
                    s.counters.writePkg++;
                    s.counters.writeByte += n;
                    s.counters.writePkgMax = Math.max(s.counters.writePkgMax, n);
                    finishWrite(s, pid);
                    return EAtom.OK;
                }
                if (n >= 0 || n == -Errno.EAGAIN) {
                    s.counters.writeWaits++;
                    if (n > 0) s.counters.writeByte += n;
                    s.writer = new Sock.Op(pid, handle);
                    s.arm(s.writer, false);
                    return n > 0 ? ETuple.of(SELECT, ESmall.of(n)) : SELECT;
                }
                s.counters.writeFails++;
                finishWrite(s, pid);
                return error((int) n);
            }
        } finally {
            sc.done(buf);
        }
    }

    private static void finishWrite(Sock s, EPid pid) {
        if (s.writer != null && s.writer.pid.equals(pid)) s.writer = s.next(s.writers, false);
    }

    // ---- receiving ----

    /**
     * nif_recv ({@code from} false) and nif_recvfrom ({@code from} true). A stream recv of a length
     * that gets fewer bytes answers {@code {select, Bin}} (it waits for the rest) unless the handle is
     * zero; length 0 reads what is there, up to the socket's read size. End of stream is {error, closed}.
     */
    static Term recv(Sock s, EPid pid, long length, int flags, Term handle, boolean from) {
        return recv(s, pid, length, flags, handle, from ? FROM : PLAIN);
    }

    /** What a receive answers: the data ({@code recv}), with the sender ({@code recvfrom}), as a msghdr map ({@code recvmsg}). */
    static final int PLAIN = 0, FROM = 1, MSG = 2;

    static Term recv(Sock s, EPid pid, long length, int flags, Term handle, int form) {
        boolean zero = handle == ZERO, from = form != PLAIN;
        // recvmsg on a datagram socket learns of truncation from MSG_TRUNC's real length (for a
        // stream MSG_TRUNC would discard data instead).
        boolean truncFlag = form == MSG && s.type != Sockets.SOCK_STREAM;
        if (truncFlag) flags |= 0x20;
        int size = length == 0 ? s.rbufsz : (int) Math.min(length, Integer.MAX_VALUE - 64);
        Scratch sc = Scratch.get();
        MemorySegment buf = sc.data(Math.max(1, size));
        try {
            MemorySegment sa = from ? sc.addr : MemorySegment.NULL;
            MemorySegment salen = from ? sc.cell : MemorySegment.NULL;
            if (from) salen.set(JAVA_INT, 0, SockAddrs.STORAGE);
            synchronized (s) {
                if (s.closed) return CLOSED;
                if (!zero && s.mustQueue(s.reader, s.readers, pid, handle)) return SELECT;
                s.counters.readTries++;
                long n = Libc.recvfrom(s.fd, buf, size, flags | Sockets.MSG_DONTWAIT, sa, salen);
                if (n == -Errno.EAGAIN) {
                    if (zero) return EAtom.OK;
                    s.counters.readWaits++;
                    s.reader = new Sock.Op(pid, handle);
                    s.arm(s.reader, true);
                    return SELECT;
                }
                if (n < 0) {
                    s.counters.readFails++;
                    finishRead(s, pid);
                    return error((int) n);
                }
                boolean stream = s.type == Sockets.SOCK_STREAM;
                if (n == 0 && stream && size > 0) {
                    finishRead(s, pid);
                    return CLOSED;
                }
                boolean trunc = truncFlag && n > size;
                if (trunc) n = size;
                s.counters.readByte += n;
                EBitString bin = EBitString.of(buf.asSlice(0, n).toArray(JAVA_BYTE));
                if (stream && length > 0 && n < length && !zero && !from) {
                    s.reader = new Sock.Op(pid, handle);
                    s.arm(s.reader, true);
                    return ETuple.of(SELECT, bin);
                }
                s.counters.readPkg++;
                s.counters.readPkgMax = Math.max(s.counters.readPkgMax, n);
                finishRead(s, pid);
                if (!from) return ETuple.of(EAtom.OK, bin);
                int alen = salen.get(JAVA_INT, 0);
                if (form == MSG) return ETuple.of(EAtom.OK, SockMsg.received(bin, alen > 0 ? SockAddrs.decode(sa, alen) : null, trunc));
                return ETuple.of(EAtom.OK, ETuple.of(SockAddrs.decode(sa, alen), bin));
            }
        } finally {
            sc.done(buf);
        }
    }

    private static void finishRead(Sock s, EPid pid) {
        if (s.reader != null && s.reader.pid.equals(pid)) s.reader = s.next(s.readers, true);
    }

    // ---- cancel, close, shutdown, names ----

    /**
     * nif_cancel(Sock, Op, Handle): {@code ok} when the operation was waiting (its select is withdrawn),
     * {@code select_sent} when its select message is already out (socket.erl flushes it),
     * {@code not_found} when no such operation waits; invalid Op atoms are {invalid, Op}.
     */
    static Term cancel(Sock s, EAtom op, Term handle) {
        synchronized (s) {
            if (s.closed) return CLOSED;
            switch (op.name) {
                case "recv", "recvfrom", "recvmsg" -> {
                    Term r = cancelIn(s, s.reader, s.readers, handle);
                    if (r != NOT_FOUND && s.reader != null && s.reader.ref.equals(handle)) s.reader = s.next(s.readers, true);
                    return r;
                }
                case "send", "sendto", "sendmsg", "sendfile" -> {
                    Term r = cancelIn(s, s.writer, s.writers, handle);
                    if (r != NOT_FOUND && s.writer != null && s.writer.ref.equals(handle)) s.writer = s.next(s.writers, false);
                    return r;
                }
                case "accept" -> {
                    Term r = cancelIn(s, s.acceptor, s.acceptors, handle);
                    if (r != NOT_FOUND && s.acceptor != null && s.acceptor.ref.equals(handle)) s.acceptor = s.next(s.acceptors, true);
                    return r;
                }
                case "connect" -> {
                    if (s.connector == null || !s.connector.ref.equals(handle)) return NOT_FOUND;
                    Term r = s.connector.sent ? SELECT_SENT : EAtom.OK;
                    s.connector = null;
                    s.connecting = false;
                    return r;
                }
                default -> throw org.jbeam.runtime.ErlangException.badarg();
            }
        }
    }

    private static Term cancelIn(Sock s, Sock.Op cur, java.util.ArrayDeque<Sock.Op> q, Term handle) {
        if (cur != null && cur.ref.equals(handle)) {
            Term r = cur.sent ? SELECT_SENT : EAtom.OK;
            cur.armed = false;
            return r;
        }
        return q.removeIf(o -> o.ref.equals(handle)) ? EAtom.OK : NOT_FOUND;
    }

    /**
     * nif_close: {@code ok} when nothing polls the socket any more, else {@code {ok, CloseRef}} and the
     * closer gets {@code {'$socket', Socket, close, CloseRef}} once the ring has let go of the fd;
     * socket.erl then calls nif_finalize_close, which closes it.
     */
    static Term close(Sock s, ErlProcess p) {
        synchronized (s) {
            if (s.closed) return CLOSED;
            s.beginClose();
        }
        // The close message is only needed if the ring still holds the fd when close returns: 0 = close
        // still deciding, 1 = it answered {ok, CloseRef} (the release action sends the message),
        // 2 = the release ran first (close answers ok).
        org.jbeam.term.ERef closeRef = p.vm.makeRef();
        java.util.concurrent.atomic.AtomicInteger state = new java.util.concurrent.atomic.AtomicInteger();
        s.releaseKey(() -> {
            if (!state.compareAndSet(0, 2)) p.vm.sendTo(p.pid, ETuple.of(Sock.TAG, s.term, Sock.CLOSE, closeRef));
        });
        return state.compareAndSet(0, 1) ? ETuple.of(EAtom.OK, closeRef) : EAtom.OK;
    }

    static Term shutdown(Sock s, Term how) {
        int h;
        if (how == EAtom.of("read")) h = Sockets.SHUT_RD;
        else if (how == EAtom.of("write")) h = Sockets.SHUT_WR;
        else if (how == EAtom.of("read_write")) h = Sockets.SHUT_RDWR;
        else throw org.jbeam.runtime.ErlangException.error(ETuple.of(INVALID, ETuple.of(EAtom.of("how"), how)));
        synchronized (s) {
            if (s.closed) return CLOSED;
            int r = Libc.shutdown(s.fd, h);
            return r < 0 ? error(r) : EAtom.OK;
        }
    }

    static Term name(Sock s, boolean peer) {
        synchronized (s) {
            if (s.closed) return CLOSED;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment sa = a.allocate(SockAddrs.STORAGE), len = a.allocate(JAVA_INT);
                len.set(JAVA_INT, 0, SockAddrs.STORAGE);
                int r = peer ? Libc.getpeername(s.fd, sa, len) : Libc.getsockname(s.fd, sa, len);
                if (r < 0) return error(r);
                return ETuple.of(EAtom.OK, SockAddrs.decode(sa, len.get(JAVA_INT, 0)));
            }
        }
    }
}
