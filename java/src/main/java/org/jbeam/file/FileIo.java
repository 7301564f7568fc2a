package org.jbeam.file;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.libc.LibcFiles;
import org.jbeam.io.CompletionRing;
import org.jbeam.io.PosixErrors;
import org.jbeam.io.SharedRing;
import org.jbeam.term.*;

/**
 * prim_file's data path on the completion ring (ADR 0005): read, pread, write, pwrite, sync and
 * read_file are ring operations whose completion hands the NIF's result to a {@link Reply} (the
 * parked process's AsyncCall). As in erts' efile_readv/efile_writev, a read loops until the size
 * is reached or a read returns 0 (eof), a write until every byte is written: each step is one
 * ring operation of at most {@link NativeBuffers#MAX} bytes, resubmitted from the completion.
 *
 * <p>Lifetimes: the handle was acquired by the caller (its descriptor stays open, see
 * {@link FileHandle}) and is released here once, after the last completion; the off-heap buffer
 * is taken before the first submission and given back after the last completion, so the kernel
 * never sees freed memory. If the waiting process died, the result is dropped.
 */
public final class FileIo {
    private FileIo() {}

    /** Receives an operation's final term; false when nobody waits for it any more. */
    @FunctionalInterface
    public interface Reply { boolean complete(Term result); }

    private static Term error(int res) { return Posix.tuple(PosixErrors.atom(res)); }

    /**
     * Base of the multi-step operations: one completion callback, one final result. The NIF runs
     * {@link #now} (the synchronous page-cache part, if the operation has one) and returns its
     * term directly; only when that returns null does it park the process and hand the rest to the
     * ring with {@link #ring}. {@link #start} does both for callers that always take a reply.
     */
    public abstract static class Op implements CompletionRing.Completion {
        final FileHandle h;
        /** Set by {@link #ring} before the first submission; null while the operation is synchronous. */
        private Reply reply;
        final CompletionRing ring = SharedRing.get();
        NativeBuffers.Buf buf;
        private boolean done;
        /** The final term of an operation that finished before it had a reply. */
        private Term result;

        Op(FileHandle h) { this.h = h; }

        /** Handles one completion; returns the final term, or null after submitting the next step. */
        abstract Term step(int res);

        /** Submits the next step (from the NIF or from a completion), continuing from the current state. */
        abstract void next();

        /**
         * The synchronous path on the calling thread (ADR 0012): the final term, or null when the
         * ring must do the operation or the rest of it (then call {@link #ring}). A page-cache read or
         * a small write thus costs the NIF call and nothing else: no AsyncCall, no trap (ADR 0023).
         */
        public final Term now() {
            try { if (fast()) return result; }
            catch (RuntimeException e) { finish(error(-org.jbeam.bindings.libc.Errno.EIO)); return result; }
            return null;
        }

        /**
         * Stages the next step on the ring with {@code r} as the reply; the NIF submits it
         * ({@link #submitAndSpin}). The reply is set before anything is staged, so a completion
         * reaped by another thread always finds it.
         */
        public final void ring(Reply r) {
            reply = r;
            first = true;
            try { next(); } catch (RuntimeException e) { finish(error(-org.jbeam.bindings.libc.Errno.EIO)); }
            first = false;
        }

        /** {@link #now}, then {@link #ring} if needed; the result always goes to {@code r}. */
        final void start(Reply r) {
            Term t = now();
            if (t != null) r.complete(t); else ring(r);
        }

        /** The synchronous path: true when it finished the operation (called {@link #finish}), false to continue on the ring. */
        boolean fast() { return false; }

        private boolean first;

        /** Submits a staged step: follow-up steps (from completions) at once, the first one by the NIF. */
        final void submit() { if (!first) ring.submit(); }

        @Override public final void complete(long userData, int res) {
            Term t;
            try { t = step(res); }
            catch (RuntimeException | OutOfMemoryError e) { t = Posix.tuple(Posix.ENOMEM); }
            if (t != null) finish(t);
        }

        final void finish(Term t) {
            if (done) return;
            done = true;
            if (buf != null) { NativeBuffers.give(buf); buf = null; }
            released();
            if (reply != null) reply.complete(t); else result = t;
        }

        void released() { h.release(); }
    }

    /** An operation decided before any I/O (bad size, nothing to write): {@link Op#now} returns {@code t}. */
    private static final class Done extends Op {
        private final Term t;
        Done(FileHandle h, Term t) { super(h); this.t = t; }
        @Override boolean fast() { finish(t); return true; }
        @Override void next() { finish(t); }
        @Override Term step(int res) { return t; }
    }

    /** How long a NIF's thread drives the ring for its own completion before parking the process. */
    private static final long SPIN_NANOS = Long.getLong("jbeam.io.spin", 50) * 1000;

    /**
     * Submits what the NIF staged. While {@code idle} (nothing else runnable) the scheduler thread
     * keeps reaping for up to {@code -Djbeam.io.spin} µs (default 50): a page-cache read completes
     * inside the submission and a buffered write a few µs later on io-wq, so the process usually
     * continues without being parked and woken (ADR 0005's measurements).
     */
    public static void submitAndSpin(java.util.function.BooleanSupplier stop) {
        SharedRing.get().submitAndSpin(stop, SPIN_NANOS);
    }

    /** Submits what the NIF staged, without waiting. */
    public static void submit() { SharedRing.get().submit(); }

    // ---- read / pread / read_file ----

    /**
     * -Djbeam.io.nowait (default true): reads first try {@code preadv2(RWF_NOWAIT)} on the NIF's
     * thread. Data in the page cache is copied at once, with no ring submission, completion or
     * park (ADR 0012); anything that would wait for the disk (or a pipe writer) fails with EAGAIN
     * and goes to the ring as before. Errors also go to the ring, which repeats the read and
     * reports the errno the blocking read gives.
     */
    static final boolean NOWAIT = !"false".equals(System.getProperty("jbeam.io.nowait"));

    private static class Read extends Op {
        final long offset;     // -1: at the file position
        final long want;
        final int initial;
        /** Bytes per step: the native buffer's size. */
        final int step;
        byte[] out;            // allocated with the first step
        int got;

        Read(FileHandle h, long offset, long want, int initial) {
            super(h);
            this.offset = offset;
            this.want = want;
            this.initial = initial;
            this.step = (int) Math.min(Math.max(initial, 4096), NativeBuffers.MAX);
        }

        private int chunk() { return (int) Math.min(want - got, step); }

        @Override void next() {
            if (buf == null) buf = NativeBuffers.take(step);
            MemorySegment s = buf.seg().asSlice(0, chunk());
            if (offset < 0) ring.read(0, h.fd, s, this); else ring.pread(0, h.fd, s, offset + got, this);
            submit();
        }

        @Override boolean fast() {
            if (!NOWAIT) return false;
            boolean heap = LibcFiles.hasHeapRead();
            while (true) {
                int n = chunk();
                long pos = offset < 0 ? -1 : offset + got, res;
                if (heap) {
                    // Fill what the array has room for before growing it: read_file sizes it to the
                    // file's size + 1, so its final (eof) read must not double it.
                    if (out == null || got == out.length) room(n);
                    res = LibcFiles.preadv2Heap(h.fd, out, got, Math.min(n, out.length - got), pos, LibcFiles.RWF_NOWAIT);
                    if (res > 0) got += (int) res;
                } else {
                    if (buf == null) buf = NativeBuffers.take(step);
                    res = LibcFiles.preadv2(h.fd, buf.seg(), n, pos, LibcFiles.RWF_NOWAIT);
                    if (res > 0) take((int) res);
                }
                if (res < 0) return false;      // the rest (or the error) from the ring
                if (res == 0 || got >= want) { finish(result()); return true; }
            }
        }

        /** Makes room in {@code out} for {@code n} more bytes. */
        private void room(int n) {
            if (out == null) out = FreshArrays.bytes(Math.max(initial, n));
            else if (got + n > out.length) out = Arrays.copyOf(out, (int) Math.min(want, Math.max(got + n, 2L * out.length)));
        }

        /** Appends {@code res} bytes from the native buffer. */
        private void take(int res) {
            room(res);
            MemorySegment.copy(buf.seg(), ValueLayout.JAVA_BYTE, 0, out, got, res);
            got += res;
        }

        @Override Term step(int res) {
            if (res < 0) return error(res);
            if (res > 0) take(res);
            if (res == 0 || got >= want) return result();
            next();
            return null;
        }

        Term result() {
            if (got == 0) return Posix.EOF;
            EBitString b;
            if (got == out.length) b = EBitString.of(out);
            else if (got > out.length / 2) {
                FreshArrays.clearTail(out, got);    // a short read's unwritten rest (ADR 0044)
                b = EBitString.of(out, 0, got);
            } else b = EBitString.of(Arrays.copyOf(out, got));
            return ETuple.of(EAtom.OK, b);
        }
    }

    /** read_nif / pread_nif ({@code offset} -1 reads at the file position): {@link Op#now}, then {@link Op#ring}. */
    public static Op read(FileHandle h, long offset, long size) {
        if (size > Integer.MAX_VALUE - 16) return new Done(h, Posix.tuple(Posix.ENOMEM));
        if (size == 0) return new Done(h, Posix.EOF);
        // Grow the result as data arrives rather than trusting a caller's huge size up front.
        return new Read(h, offset, size, (int) Math.min(size, NativeBuffers.MAX));
    }

    /** read_file_nif: open (synchronous), then ring reads until eof into a buffer sized by fstat, then close. */
    public static void readFile(Path p, Reply reply) {
        FileHandle h = FileOps.openUnregistered(p, FileHandle.READ);
        long size = FileOps.size(h.fd);
        int initial = (int) Math.max(64, Math.min(size < 0 ? 0 : size + 1, Integer.MAX_VALUE - 16));
        h.acquire();
        new Read(h, 0, Integer.MAX_VALUE - 16, initial) {
            @Override Term result() { return got == 0 ? ETuple.of(EAtom.OK, EBitString.EMPTY) : super.result(); }
            @Override void released() { h.release(); h.close(); }
        }.start(reply);
    }

    // ---- write / pwrite ----

    /**
     * -Djbeam.io.syncwrite (bytes, default 65536; 0 disables): a write of at most this many bytes
     * to a regular file is done by write(2)/pwrite(2) on the NIF's thread instead of the ring.
     * ext4 here has no non-blocking buffered write (RWF_NOWAIT: EOPNOTSUPP), so io_uring hands
     * every such write to an io-wq kernel thread, and that hop and the wake-up back cost more than
     * the copy into the page cache itself (ADR 0012). {@link SlowWriteGuard} sends writes to the
     * ring for a second when synchronous ones keep stalling the thread (ADR 0067).
     */
    static final int SYNC_WRITE = Math.min(Integer.getInteger("jbeam.io.syncwrite", 65536), NativeBuffers.MAX);
    /** Tests: forget a slow write seen earlier (the guard is VM-wide, and a loaded machine trips it). */
    static void clearSlowWriteGuard() { SlowWriteGuard.clear(); WriteChoice.reset(); }
    /** -Djbeam.io.stats: the slow-write guard's counts. */
    public static String slowWriteStats() { return SlowWriteGuard.stats(); }
    /** -Djbeam.io.stats: how {@link WriteChoice} split the writes it measures. */
    public static String writeChoiceStats() { return WriteChoice.stats(); }
    /** Heap writes are critical downcalls (no copy, but the GC waits for them): -Djbeam.io.heapwrite. */
    private static final boolean HEAP_WRITE = !"false".equals(System.getProperty("jbeam.io.heapwrite"));

    private static final class Write extends Op {
        final long offset;     // -1: at the file position (or the end, with O_APPEND)
        final EBitString[] parts;
        final long total;
        int part, partOff;     // next byte to copy into the buffer
        int filled, sent;      // buffer bytes staged / already written
        long written;

        Write(FileHandle h, long offset, EBitString[] parts, long total) {
            super(h);
            this.offset = offset;
            this.parts = parts;
            this.total = total;
        }

        /** nanoTime when a write that {@link WriteChoice} measures was sent to the ring; 0 if not measured. */
        long ringStart;

        @Override boolean fast() {
            // O_SYNC ([sync] mode) writes wait for the device: always the ring.
            if (total > SYNC_WRITE || h.has(FileHandle.SYNC) || !h.isRegular()) return false;
            long t0 = System.nanoTime(), r;
            if (!SlowWriteGuard.allows(t0) || !WriteChoice.sync(total)) {
                if (WriteChoice.measured(total)) ringStart = t0;
                return false;
            }
            if (HEAP_WRITE && parts.length == 1) {
                EBitString b = parts[0];
                r = LibcFiles.writeHeap(h.fd, b.array(), b.arrayOffset(), b.byteSize(), offset);
                if (r > 0) { partOff = (int) r; if (partOff == b.byteSize()) { part = 1; partOff = 0; } }
            } else {
                buf = NativeBuffers.take((int) total);
                fill();
                r = offset < 0 ? Libc.write(h.fd, buf.seg(), filled) : Libc.pwrite(h.fd, buf.seg(), filled, offset);
                if (r > 0) sent = (int) r;
            }
            long t = System.nanoTime();
            SlowWriteGuard.observe(t0, t);
            if (r == total && WriteChoice.measured(total)) WriteChoice.record(true, t - t0, total);
            if (r < 0 && r != -Errno.EINTR && r != -Errno.EAGAIN) { finish(error((int) r)); return true; }
            if (r > 0) written = r;
            if (written == total) { finish(EAtom.OK); return true; }
            return false;                       // a short write: the rest on the ring
        }

        /** Copies the next parts into the buffer (binaries are immutable: safe from any thread). */
        private void fill() {
            MemorySegment s = buf.seg();
            int cap = (int) s.byteSize();
            filled = sent = 0;
            while (part < parts.length && filled < cap) {
                EBitString b = parts[part];
                int n = Math.min(b.byteSize() - partOff, cap - filled);
                MemorySegment.copy(b.array(), b.arrayOffset() + partOff, s, ValueLayout.JAVA_BYTE, filled, n);
                filled += n;
                partOff += n;
                if (partOff == b.byteSize()) { part++; partOff = 0; }
            }
        }

        @Override void next() {
            if (buf == null) buf = NativeBuffers.take((int) Math.min(total - written, NativeBuffers.MAX));
            if (sent == filled) fill();
            MemorySegment s = buf.seg().asSlice(sent, filled - sent);
            if (offset < 0) ring.write(0, h.fd, s, this); else ring.pwrite(0, h.fd, s, offset + written, this);
            submit();
        }

        @Override Term step(int res) {
            if (res < 0) return error(res);
            sent += res;
            written += res;
            if (sent < filled || part < parts.length) { next(); return null; }
            if (ringStart != 0) WriteChoice.record(false, System.nanoTime() - ringStart, total);
            return EAtom.OK;
        }
    }

    /** write_nif / pwrite_nif: every binary of the I/O vector in order ({@link Op#now}, then {@link Op#ring}). */
    public static Op write(FileHandle h, long offset, EBitString[] iov) {
        long total = 0;
        for (EBitString b : iov) total += b.byteSize();
        if (total == 0) return new Done(h, EAtom.OK);
        return new Write(h, offset, iov, total);
    }

    // ---- sync ----

    /** sync_nif: fsync, or fdatasync when {@code dataOnly}; always on the ring. */
    public static Op sync(FileHandle h, boolean dataOnly) {
        return new Op(h) {
            @Override void next() { ring.fsync(0, h.fd, dataOnly, this); submit(); }
            @Override Term step(int res) { return res < 0 ? error(res) : EAtom.OK; }
        };
    }
}
