package org.jbeam.file;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.bindings.libc.Libc;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.ERef;
import org.jbeam.term.Term;

/**
 * An open file of prim_file (OTP's efile resource): an OS descriptor plus the mode flags the NIF
 * needs. Erlang sees it as an opaque reference ({@link #ref}); the registry maps references back
 * to handles. Closed handles leave the registry; a reference carrying the file tag that is no
 * longer registered is a closed file (operations on it return {error, einval}, as in OTP).
 *
 * <p>Like erts' efile states (IDLE/BUSY/CLOSE_PENDING), the descriptor is not closed while ring
 * operations on it are in flight: close marks the handle closed and the last completing operation
 * closes the descriptor, so a number the kernel reuses can never receive a stale read or write.
 * The opening process owns the file; when it exits the file is closed (prim_file_nif.c's
 * owner_death_callback), so a killed reader leaks no descriptor.
 */
public final class FileHandle {
    /** Mode bits (efile_modes_t). */
    public static final int READ = 1, WRITE = 2, APPEND = 4, EXCLUSIVE = 8, SYNC = 16, SKIP_TYPE_CHECK = 32,
            DIRECTORY = 64;
    /** Third id word of every file reference; runtime make_ref/0 references have 0 there. */
    private static final int TAG = 0x7F11E000;
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ConcurrentHashMap<ERef, FileHandle> OPEN = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<EPid, Set<FileHandle>> BY_OWNER = new ConcurrentHashMap<>();

    public final ERef ref;
    public final int fd;
    /** The path it was opened by (for fstat emulation); for inherited descriptors /proc/self/fd/N. */
    public final Path path;
    public final int modes;
    /** Inherited descriptors 0–2 are shared with the JVM: closing only forgets them. */
    private final boolean shared;
    private final EPid owner;
    private boolean closed;
    /** Ring operations in flight (guarded by this). */
    private int busy;

    private FileHandle(int fd, Path path, int modes, boolean shared, EPid owner) {
        long id = NEXT.getAndIncrement();
        this.ref = new ERef(EAtom.NONODE, 0, new int[] {(int) (id & 0x3FFFF), (int) (id >>> 18), TAG});
        this.fd = fd;
        this.path = path;
        this.modes = modes;
        this.shared = shared;
        this.owner = owner;
    }

    /** Registers a descriptor opened for {@code owner} (null: no process, e.g. a test driving the NIFs). */
    static FileHandle register(int fd, Path path, int modes, boolean shared, ErlProcess owner) {
        FileHandle h = new FileHandle(fd, path, modes, shared, owner == null ? null : owner.pid);
        OPEN.put(h.ref, h);
        if (h.owner != null) BY_OWNER.computeIfAbsent(h.owner, k -> ConcurrentHashMap.newKeySet()).add(h);
        return h;
    }

    /** A handle outside the registry (no reference hands it out, no owner closes it). */
    static FileHandle unregistered(int fd, Path path, int modes) { return new FileHandle(fd, path, modes, false, null); }

    /** Whether a term is a file reference (open or closed); anything else is badarg to the NIFs. */
    public static boolean isFileRef(Term t) {
        return t instanceof ERef r && r.idCount() == 3 && r.id(2) == TAG && r.node == EAtom.NONODE;
    }

    /** The open handle a reference names, or null when it was closed. Callers check {@link #isFileRef} first. */
    public static FileHandle lookup(Term t) { return OPEN.get((ERef) t); }

    /** Number of open handles (for tests and diagnostics). */
    public static int openCount() { return OPEN.size(); }

    /** The owner exited: close everything it opened (ProcessTable.exit calls this). */
    public static void ownerExited(ErlProcess p) {
        Set<FileHandle> mine = BY_OWNER.remove(p.pid);
        if (mine != null) for (FileHandle h : mine) h.close();
    }

    public boolean has(int mode) { return (modes & mode) != 0; }

    /** 0: not yet known, 1: a regular file, 2: anything else (fstat on first ask; the type cannot change). */
    private volatile int kind;

    /** Whether the descriptor is a regular file (the write fast path only writes those on the scheduler). */
    public boolean isRegular() {
        int k = kind;
        if (k == 0) {
            long[] st = org.jbeam.bindings.libc.LibcFiles.fstat(fd, new int[1]);
            kind = k = st != null && (st[0] & 0170000) == 0100000 ? 1 : 2;
        }
        return k == 1;
    }

    public synchronized boolean isClosed() { return closed; }

    /** Starts a ring operation: false when the handle is already closed. */
    public synchronized boolean acquire() {
        if (closed) return false;
        busy++;
        return true;
    }

    /** Ends a ring operation; the last one after a close releases the descriptor. */
    public void release() {
        boolean closeNow;
        synchronized (this) { closeNow = --busy == 0 && closed; }
        if (closeNow) closeFd();
    }

    /** Closes the handle (the descriptor once no operation is in flight); false when it was already closed. */
    public boolean close() {
        boolean closeNow;
        synchronized (this) {
            if (closed) return false;
            closed = true;
            closeNow = busy == 0;
        }
        OPEN.remove(ref);
        if (owner != null) {
            Set<FileHandle> s = BY_OWNER.get(owner);
            if (s != null) s.remove(this);
        }
        if (closeNow) closeFd();
        return true;
    }

    private void closeFd() {
        if (!shared) Libc.close(fd);
    }
}
