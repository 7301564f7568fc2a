package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.jbeam.file.FileHandle;
import org.jbeam.file.FileInfo;
import org.jbeam.file.FileIo;
import org.jbeam.file.FileNames;
import org.jbeam.file.FileOps;
import org.jbeam.file.FsOps;
import org.jbeam.file.Posix;
import org.jbeam.file.PrimBuffer;
import org.jbeam.interp.Trap;
import org.jbeam.runtime.AsyncCall;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * prim_file's natives: the *_nif functions of erts' prim_file_nif.c (argument checks, badarg vs
 * {error, einval} and return shapes as in the C code) and the file name BIFs of bif.tab
 * (internal_name2native/1 etc., file:native_name_encoding/0), and prim_buffer's NIF. File handles are references to
 * {@link FileHandle}s; the work is done by org.jbeam.file with java.nio.
 */
public final class PrimFileBifs implements BifModule {
    private static final String M = "prim_file";

    @Override
    public void register(BifTable t) {
        // File name BIFs (erts bif.tab), utf8 file name mode.
        t.bif1(M, "internal_name2native", (p, n) -> FileNames.name2native(n));
        t.bif1(M, "internal_native2name", (p, b) -> FileNames.native2name(b));
        t.bif1(M, "internal_normalize_utf8", (p, b) -> FileNames.normalizeUtf8(b));
        t.bif1(M, "is_translatable", (p, b) -> FileNames.isTranslatable(b));
        t.bif0("file", "native_name_encoding", p -> EAtom.UTF8);

        // prim_buffer (prim_file's read-ahead buffer; a static NIF in erts).
        String pb = "prim_buffer";
        t.bif0(pb, "new", p -> PrimBuffer.create());
        t.bif1(pb, "size", (p, b) -> PrimBuffer.of(b).size());
        t.bif2(pb, "write", (p, b, iov) -> PrimBuffer.of(b).write(iov));
        t.bif2(pb, "copying_read", (p, b, n) -> PrimBuffer.of(b).copyingRead(n));
        t.bif2(pb, "skip", (p, b, n) -> PrimBuffer.of(b).skip(n));
        t.bif1(pb, "peek_head", (p, b) -> PrimBuffer.of(b).peekHead());
        t.bif2(pb, "find_byte_index", (p, b, n) -> PrimBuffer.of(b).find(n));
        t.bif1(pb, "try_lock", (p, b) -> PrimBuffer.of(b).tryLock());
        t.bif1(pb, "unlock", (p, b) -> PrimBuffer.of(b).unlock());

        // Handle operations.
        t.bif2(M, "open_nif", (p, name, modes) -> {
            if (!(modes instanceof EList)) throw ErlangException.badarg();
            int m = FileOps.normalizeModes(modes(modes));
            return Posix.call(() -> ETuple.of(EAtom.OK, FileOps.open(FileNames.path(name), m, p).ref));
        });
        t.bif1(M, "file_desc_to_ref_nif", (p, fd) -> {
            if (!(fd instanceof ESmall s) || s.value != (int) s.value) throw ErlangException.badarg();
            return Posix.call(() -> ETuple.of(EAtom.OK, FileOps.fromFd((int) s.value, p).ref));
        });
        t.bif1(M, "close_nif", (p, ref) -> closeNif(ref, false));
        t.bif1(M, "delayed_close_nif", (p, ref) -> closeNif(ref, true));
        // The data path (FileIo): page-cache reads and small writes finish in the NIF; the rest runs
        // on the completion ring while the process parks.
        t.bif2(M, "read_nif", (p, ref, size) -> onRing(p, ref, h -> FileIo.read(h, -1, nonNeg(size))));
        t.bif2(M, "write_nif", (p, ref, iov) -> onRing(p, ref, h -> FileIo.write(h, -1, iovec(iov))));
        t.bif3(M, "pread_nif", (p, ref, off, size) -> onRing(p, ref, h -> {
            checkNumbers(off, size);
            long o = nonNeg(off), n = nonNeg(size);
            return FileIo.read(h, o, n);
        }));
        t.bif3(M, "pwrite_nif", (p, ref, off, iov) -> onRing(p, ref, h -> {
            checkNumbers(off);
            EBitString[] v = iovec(iov);
            long o = nonNeg(off);
            return FileIo.write(h, o, v);
        }));
        t.bif2(M, "sync_nif", (p, ref, dataOnly) -> onRing(p, ref, h -> FileIo.sync(h, int32(dataOnly) != 0)));
        t.bif3(M, "seek_nif", (p, ref, mark, off) -> withHandle(ref, h -> {
            long o = int64(off);
            if (mark != Posix.EOF && mark != EAtom.of("bof") && mark != EAtom.of("cur")) throw ErlangException.badarg();
            return FileOps.seek(h, (EAtom) mark, o);
        }));
        t.bif1(M, "truncate_nif", (p, ref) -> withHandle(ref, FileOps::truncate));
        t.bif3(M, "allocate_nif", (p, ref, off, len) -> withHandle(ref, h -> {
            checkNumbers(off, len);
            return FileOps.allocate(h, nonNeg(off), nonNeg(len));
        }));
        t.bifN(M, "advise_nif", 4, (p, a) -> withHandle(a[0], h -> {
            checkNumbers(a[1], a[2]);
            nonNeg(a[1]);
            nonNeg(a[2]);
            return switch (a[3] instanceof EAtom at ? at.name : "") {
                case "normal", "random", "sequential", "will_need", "dont_need", "no_reuse" -> EAtom.OK; // advisory only
                default -> Posix.tuple(Posix.EINVAL);
            };
        }));
        // As erts: the OS descriptor as a native int in a binary, for prim_inet:sendfile/4 (inet/Sendfile).
        t.bif1(M, "get_handle_nif", (p, ref) -> withHandle(ref, h -> EBitString.of(new byte[] {
                (byte) h.fd, (byte) (h.fd >>> 8), (byte) (h.fd >>> 16), (byte) (h.fd >>> 24)})));
        t.bif1(M, "read_handle_info_nif", (p, ref) -> withHandle(ref, FileInfo::ofHandle));
        t.bif3(M, "ipread_s32bu_p32bu_nif", (p, ref, off, max) -> withHandle(ref, h -> {
            checkNumbers(off, max);
            long o = nonNeg(off);
            if (!(max instanceof ESmall ms) || ms.value >= (1L << 31)) throw Posix.error(Posix.EINVAL);
            return FileOps.ipread(h, o, ms.value);
        }));

        // Path operations.
        t.bif1(M, "read_file_nif", (p, path) -> {
            java.nio.file.Path f;
            try { f = FileNames.path(path); } catch (Posix.Error e) { return Posix.tuple(e.errno); }
            return async(p, r -> FileIo.readFile(f, r));
        });
        t.bif2(M, "read_info_nif", (p, path, follow) -> {
            int f = int32(follow);
            return Posix.call(() -> FileInfo.ofPath(FileNames.path(path), f != 0));
        });
        t.bif2(M, "set_permissions_nif", (p, path, perm) -> {
            if (!(perm instanceof ESmall s) || s.value < 0 || s.value > 0xFFFFFFFFL) throw ErlangException.badarg();
            return Posix.call(() -> FsOps.setPermissions(FileNames.path(path), s.value));
        });
        t.bif3(M, "set_owner_nif", (p, path, uid, gid) -> {
            int u = int32(uid), g = int32(gid);
            return Posix.call(() -> FsOps.setOwner(FileNames.path(path), u, g));
        });
        t.bifN(M, "set_time_nif", 4, (p, a) -> {
            long at = int64(a[1]), mt = int64(a[2]);
            int64(a[3]);
            return Posix.call(() -> FsOps.setTime(FileNames.path(a[0]), at, mt));
        });
        t.bif1(M, "read_link_nif", (p, path) -> Posix.call(() -> FsOps.readLink(FileNames.path(path))));
        t.bif1(M, "list_dir_nif", (p, path) -> Posix.call(() -> FsOps.listDir(FileNames.path(path))));
        t.bif2(M, "make_hard_link_nif", (p, ex, nw) -> Posix.call(() -> {
            var e = FileNames.path(ex);
            return FsOps.makeHardLink(e, FileNames.path(nw));
        }));
        t.bif2(M, "make_soft_link_nif", (p, ex, nw) -> Posix.call(() -> {
            byte[] target = FileNames.rawPath(ex);
            if (target.length == 0) throw Posix.error(Posix.ENOENT);
            return FsOps.makeSoftLink(target, FileNames.path(nw));
        }));
        t.bif2(M, "rename_nif", (p, from, to) -> Posix.call(() -> {
            boolean root = java.util.Arrays.equals(FileNames.rawPath(from), new byte[] {'/'});
            var f = FileNames.path(from);
            return FsOps.rename(f, FileNames.path(to), root);
        }));
        t.bif1(M, "make_dir_nif", (p, path) -> Posix.call(() -> FsOps.makeDir(FileNames.path(path))));
        t.bif1(M, "del_file_nif", (p, path) -> Posix.call(() -> FsOps.delFile(FileNames.path(path))));
        t.bif1(M, "del_dir_nif", (p, path) -> Posix.call(() -> FsOps.delDir(FileNames.path(path))));
        t.bif1(M, "get_device_cwd_nif", (p, dev) -> {
            int32(dev);
            return Posix.tuple(Posix.ENOTSUP); // drive-letter cwds exist only on Windows
        });
        t.bif0(M, "get_cwd_nif", p -> FsOps.getCwd());
        t.bif1(M, "set_cwd_nif", (p, path) -> Posix.call(() -> FsOps.setCwd(FileNames.path(path))));
        t.bif1(M, "altname_nif", (p, path) -> Posix.call(() -> {
            FileNames.rawPath(path);
            return Posix.tuple(Posix.ENOTSUP); // 8.3 names exist only on Windows
        }));
    }

    @FunctionalInterface
    private interface HandleOp { Term run(FileHandle h) throws java.io.IOException; }

    /** file_handle_wrapper: badarg unless a file reference; {error, einval} once closed. */
    private static Term withHandle(Term ref, HandleOp op) {
        if (!FileHandle.isFileRef(ref)) throw ErlangException.badarg();
        FileHandle h = FileHandle.lookup(ref);
        if (h == null || !h.acquire()) return Posix.tuple(Posix.EINVAL);
        try {
            return Posix.call(() -> op.run(h));
        } finally {
            h.release();
        }
    }

    /** -Djbeam.io.stats=true: how many ring operations completed before their process parked (ADR 0005). */
    private static final boolean STATS = Boolean.getBoolean("jbeam.io.stats");
    private static final java.util.concurrent.atomic.LongAdder DONE_SYNC = new java.util.concurrent.atomic.LongAdder(),
            DONE_IN_NIF = new java.util.concurrent.atomic.LongAdder(), PARKED = new java.util.concurrent.atomic.LongAdder();
    static {
        if (STATS) org.jbeam.runtime.ExitHooks.add(() ->
                System.err.println("prim_file: " + DONE_SYNC.sum() + " synchronous (page cache / small write); ring ops: "
                        + DONE_IN_NIF.sum() + " completed before parking, " + PARKED.sum() + " parked, "
                        + FileIo.slowWriteStats() + "; " + FileIo.writeChoiceStats()));
    }

    @FunctionalInterface
    private interface RingOp { FileIo.Op prepare(FileHandle h); }

    /**
     * file_handle_wrapper for the data path: badarg unless a file reference, {error, einval}
     * once closed; then the argument checks ({@code prepare}), then the operation runs with the
     * handle held (FileIo releases it after the last step). What finishes on this thread (a
     * page-cache read, a small write) is returned as the NIF's result; only the rest parks the
     * process on the ring (ADR 0023: no AsyncCall or trap per cached read).
     */
    private static Term onRing(ErlProcess p, Term ref, RingOp op) {
        if (!FileHandle.isFileRef(ref)) throw ErlangException.badarg();
        FileHandle h = FileHandle.lookup(ref);
        if (h == null || !h.acquire()) return Posix.tuple(Posix.EINVAL);
        FileIo.Op o;
        try {
            o = op.prepare(h);
        } catch (Posix.Error e) {
            h.release();
            return Posix.tuple(e.errno);
        } catch (RuntimeException e) {
            h.release();
            throw e;
        }
        Term t = o.now();
        if (t != null) {
            if (STATS) DONE_SYNC.increment();
            return t;
        }
        return async(p, o::ring);
    }

    /**
     * Runs an operation that answers through a {@link FileIo.Reply}: the process suspends on an
     * AsyncCall until the completion. Without a process (tests calling the natives directly) the
     * calling thread waits for the completion instead.
     */
    private static Term async(ErlProcess p, Consumer<FileIo.Reply> start) {
        if (p == null) {
            CompletableFuture<Term> f = new CompletableFuture<>();
            try { start.accept(f::complete); } catch (Posix.Error e) { return Posix.tuple(e.errno); }
            FileIo.submit();
            return f.join();
        }
        AsyncCall c = p.beginAsync();
        try {
            start.accept(c::complete);
        } catch (Posix.Error e) {
            c.complete(Posix.tuple(e.errno));
        } catch (RuntimeException e) {
            c.fail(ErlangException.badarg());
            p.vm.logInternal(e);
        }
        if (!c.isDone()) FileIo.submitAndSpin(() -> c.isDone() || p.vm.scheduler.runQueueLength() > 0);
        if (STATS) { (c.isDone() ? DONE_IN_NIF : PARKED).increment(); }
        return Trap.await(c);
    }

    private static Term closeNif(Term ref, boolean delayed) {
        if (!FileHandle.isFileRef(ref)) throw ErlangException.badarg();
        FileHandle h = FileHandle.lookup(ref);
        if (h == null) return delayed ? EAtom.OK : Posix.tuple(Posix.EINVAL);
        return h.close() || delayed ? EAtom.OK : Posix.tuple(Posix.EINVAL);
    }

    /** efile_translate_modelist: known atoms set bits; others ('raw', 'binary', ...) are ignored. */
    private static int modes(Term list) {
        int m = 0;
        while (list instanceof ECons c) {
            if (c.head instanceof EAtom a) {
                m |= switch (a.name) {
                    case "read" -> FileHandle.READ;
                    case "write" -> FileHandle.WRITE;
                    case "append" -> FileHandle.APPEND;
                    case "exclusive" -> FileHandle.EXCLUSIVE;
                    case "sync" -> FileHandle.SYNC;
                    case "skip_type_check" -> FileHandle.SKIP_TYPE_CHECK;
                    case "directory" -> FileHandle.DIRECTORY;
                    default -> 0;
                };
            }
            list = c.tail;
        }
        return m;
    }

    /** An I/O vector: a proper list of binaries. */
    private static EBitString[] iovec(Term t) {
        List<EBitString> out = new ArrayList<>();
        while (t instanceof ECons c) {
            if (!(c.head instanceof EBitString b) || !b.isBinaryAligned()) throw ErlangException.badarg();
            out.add(b);
            t = c.tail;
        }
        if (!(t instanceof ENil)) throw ErlangException.badarg();
        return out.toArray(new EBitString[0]);
    }

    /** enif_is_number checks: a non-number is badarg. */
    private static void checkNumbers(Term... ts) {
        for (Term t : ts) if (!(t instanceof ENumber)) throw ErlangException.badarg();
    }

    /** A number that must be a non-negative int64: non-numbers are badarg, other numbers einval. */
    private static long nonNeg(Term t) {
        checkNumbers(t);
        if (!(t instanceof ESmall s) || s.value < 0) throw Posix.error(Posix.EINVAL);
        return s.value;
    }

    /** enif_get_int64: badarg unless an integer in range. */
    private static long int64(Term t) {
        if (!(t instanceof ESmall s)) throw ErlangException.badarg();
        return s.value;
    }

    /** enif_get_int: badarg unless a 32-bit integer. */
    private static int int32(Term t) {
        if (!(t instanceof ESmall s) || s.value != (int) s.value) throw ErlangException.badarg();
        return (int) s.value;
    }
}
