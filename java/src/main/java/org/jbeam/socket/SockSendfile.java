package org.jbeam.socket;

import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.file.FileHandle;
import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * socket:sendfile/2..5 (nif_sendfile/5, /4, /1) with sendfile(2): the start call dups the raw
 * file's descriptor (prim_file's handle) into the socket, as esock does, so a continuation after a
 * select message sends from the same file even if the caller closed it meanwhile; the copy is closed
 * when the transfer ends, fails, the socket closes, or socket_registry's deferred close asks.
 * Count 0 sends up to the end of the file. Results: {ok, Sent}, {select, Sent} (the socket is full:
 * the caller is the current writer and gets a select message), select (queued behind another
 * writer), {error, Reason} or {error, {Reason, Sent}} once something was sent.
 */
final class SockSendfile {
    private SockSendfile() {}

    /** One sendfile(2) call's size when the count is open (0 = to the end of the file). */
    private static final long CHUNK = 1L << 30;

    /** nif_sendfile/5: the start call. */
    static Term start(Sock s, EPid pid, Term handle, long offset, long count, Term fileRef) {
        if (!FileHandle.isFileRef(fileRef)) throw org.jbeam.runtime.ErlangException.badarg();
        FileHandle f = FileHandle.lookup(fileRef);
        synchronized (s) {
            if (s.closed) return SockOps.CLOSED;
            if (s.mustQueue(s.writer, s.writers, pid, handle)) return SockOps.SELECT;
            if (f == null || !f.acquire()) return ETuple.of(EAtom.ERROR, EAtom.of("badf"));
            int dup;
            try { dup = Libc.fcntl(f.fd, Libc.F_DUPFD_CLOEXEC, 0); } finally { f.release(); }
            if (dup < 0) return SockOps.error(dup);
            closeFile(s);
            s.sendfileFd = dup;
            return send(s, pid, handle, offset, count);
        }
    }

    /** nif_sendfile/4: a continuation after the select message, on the descriptor the start call kept. */
    static Term cont(Sock s, EPid pid, Term handle, long offset, long count) {
        synchronized (s) {
            if (s.closed) return SockOps.CLOSED;
            if (s.sendfileFd < 0) return ETuple.of(EAtom.ERROR, EAtom.of("badf"));
            if (s.mustQueue(s.writer, s.writers, pid, handle)) return SockOps.SELECT;
            return send(s, pid, handle, offset, count);
        }
    }

    /** nif_sendfile/1: closes the kept file descriptor. */
    static Term deferredClose(Sock s) {
        synchronized (s) { closeFile(s); }
        return EAtom.OK;
    }

    static void closeFile(Sock s) {
        if (s.sendfileFd >= 0) {
            Libc.close(s.sendfileFd);
            s.sendfileFd = -1;
        }
    }

    private static Term send(Sock s, EPid pid, Term handle, long offset, long count) {
        MemorySegment off = Scratch.get().cell8;
        off.set(JAVA_LONG, 0, offset);
        long sent = 0;
        while (count == 0 || sent < count) {
            long want = count == 0 ? CHUNK : Math.min(CHUNK, count - sent);
            s.counters.writeTries++;
            long n = Libc.sendfile(s.fd, s.sendfileFd, off, want);
            if (n == -Errno.EAGAIN) {
                s.counters.writeWaits++;
                s.writer = new Sock.Op(pid, handle);
                s.arm(s.writer, false);
                return ETuple.of(SockOps.SELECT, ESmall.of(sent));
            }
            if (n < 0) {
                s.counters.writeFails++;
                done(s, pid);
                return ETuple.of(EAtom.ERROR, sent > 0 ? ETuple.of(SockOps.error((int) n).get(1), ESmall.of(sent))
                        : SockOps.error((int) n).get(1));
            }
            if (n == 0) break; // end of file
            sent += n;
            s.counters.writeByte += n;
        }
        s.counters.writePkg++;
        done(s, pid);
        return ETuple.of(EAtom.OK, ESmall.of(sent));
    }

    private static void done(Sock s, EPid pid) {
        closeFile(s);
        if (s.writer != null && s.writer.pid.equals(pid)) s.writer = s.next(s.writers, false);
    }
}
