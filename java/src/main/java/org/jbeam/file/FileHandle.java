package org.jbeam.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.term.EAtom;
import org.jbeam.term.ERef;
import org.jbeam.term.Term;

/**
 * An open file of prim_file (OTP's efile resource): a FileChannel plus the mode flags the NIF
 * needs. Erlang sees it as an opaque reference ({@link #ref}); the registry maps references back
 * to handles. Closed handles leave the registry; a reference carrying the file tag that is no
 * longer registered is a closed file (operations on it return {error, einval}, as in OTP).
 */
public final class FileHandle {
    /** Mode bits (efile_modes_t). */
    public static final int READ = 1, WRITE = 2, APPEND = 4, EXCLUSIVE = 8, SYNC = 16, SKIP_TYPE_CHECK = 32,
            DIRECTORY = 64;
    /** Third id word of every file reference; runtime make_ref/0 references have 0 there. */
    private static final int TAG = 0x7F11E000;
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ConcurrentHashMap<ERef, FileHandle> OPEN = new ConcurrentHashMap<>();

    public final ERef ref;
    public final FileChannel channel;
    /** The path it was opened by (for fstat emulation); for inherited descriptors /proc/self/fd/N. */
    public final Path path;
    public final int modes;
    /** True when append is emulated (the JDK refuses READ + APPEND): writes go to the end of file. */
    public final boolean emulatedAppend;
    /** Inherited descriptors 0–2 are shared with the JVM: closing only forgets them. */
    private final boolean shared;
    private boolean closed;

    private FileHandle(FileChannel channel, Path path, int modes, boolean emulatedAppend, boolean shared) {
        long id = NEXT.getAndIncrement();
        this.ref = new ERef(EAtom.NONODE, 0, new int[] {(int) (id & 0x3FFFF), (int) (id >>> 18), TAG});
        this.channel = channel;
        this.path = path;
        this.modes = modes;
        this.emulatedAppend = emulatedAppend;
        this.shared = shared;
    }

    static FileHandle register(FileChannel ch, Path path, int modes, boolean emulatedAppend, boolean shared) {
        FileHandle h = new FileHandle(ch, path, modes, emulatedAppend, shared);
        OPEN.put(h.ref, h);
        return h;
    }

    /** Whether a term is a file reference (open or closed); anything else is badarg to the NIFs. */
    public static boolean isFileRef(Term t) {
        return t instanceof ERef r && r.idCount() == 3 && r.id(2) == TAG && r.node == EAtom.NONODE;
    }

    /** The open handle a reference names, or null when it was closed. Callers check {@link #isFileRef} first. */
    public static FileHandle lookup(Term t) { return OPEN.get((ERef) t); }

    /** Number of open handles (for tests and diagnostics). */
    public static int openCount() { return OPEN.size(); }

    public boolean has(int mode) { return (modes & mode) != 0; }

    public synchronized boolean isClosed() { return closed; }

    /** Closes the handle; false when it was already closed. */
    public synchronized boolean close() throws IOException {
        if (closed) return false;
        closed = true;
        OPEN.remove(ref);
        if (!shared) channel.close();
        return true;
    }
}
