package org.jbeam.file;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import org.jbeam.bindings.libc.Fcntl;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.libc.LibcFiles;
import org.jbeam.io.PosixErrors;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.term.*;

/**
 * The synchronous operations on open files, following erts' unix_prim_file.c: open flags
 * (efile_open/open_file_flags), seek, truncate at the current position, allocate, and the
 * indirect read used by DETS — libc calls through FFM on the scheduler thread, because each is
 * one cheap metadata syscall (ADR 0005: a ring round trip costs more than the call). The data
 * path (read, write, pread, pwrite, sync, read_file) runs on the completion ring: {@link FileIo}.
 */
public final class FileOps {
    private FileOps() {}

    /** erts' FILE_MODE: rw for everyone, less the umask. */
    private static final int FILE_MODE = 0666;

    /** efile_translate_modelist's defaulting: append/exclusive imply write; neither read nor write means read. */
    public static int normalizeModes(int modes) {
        if ((modes & (FileHandle.APPEND | FileHandle.EXCLUSIVE)) != 0) return modes | FileHandle.WRITE;
        if ((modes & (FileHandle.READ | FileHandle.WRITE)) == 0) return modes | FileHandle.READ;
        return modes;
    }

    /** open_file_flags: O_RDONLY / O_WRONLY|O_CREAT|O_TRUNC / O_RDWR|O_CREAT, plus O_APPEND, O_EXCL, O_SYNC, O_DIRECTORY. */
    static int openFlags(int modes) {
        boolean read = (modes & FileHandle.READ) != 0, write = (modes & FileHandle.WRITE) != 0;
        int f;
        if (read && !write) f = Fcntl.O_RDONLY;
        else if (write && !read) f = Fcntl.O_WRONLY | Fcntl.O_CREAT | ((modes & FileHandle.APPEND) == 0 ? Fcntl.O_TRUNC : 0);
        else f = Fcntl.O_RDWR | Fcntl.O_CREAT;
        if ((modes & FileHandle.APPEND) != 0) f |= Fcntl.O_APPEND;
        if ((modes & FileHandle.EXCLUSIVE) != 0) f |= Fcntl.O_EXCL;
        if ((modes & FileHandle.SYNC) != 0) f |= Fcntl.O_SYNC;
        if ((modes & FileHandle.DIRECTORY) != 0) f |= Fcntl.O_DIRECTORY;
        return f | Fcntl.O_CLOEXEC;
    }

    /** efile_open: open(2), then (unless skip_type_check or directory) a directory is eisdir. */
    public static FileHandle open(Path p, int modes, ErlProcess owner) {
        FileHandle h = FileHandle.register(openFd(p, modes), p, modes, false, owner);
        if (!writesLinked && (modes & FileHandle.WRITE) != 0 && h.isRegular()) linkWrites(h.fd);
        return h;
    }

    private static volatile boolean writesLinked;

    /**
     * The first heap write of a VM links its downcalls (8-47 ms measured, ADR 0067), which the
     * slow-write guard would count as a stall of the scheduler. Done at the first open for writing
     * instead, by an empty write(2) and pwrite(2): no effect on a regular file.
     */
    private static void linkWrites(int fd) {
        writesLinked = true;
        org.jbeam.bindings.libc.LibcFiles.writeHeap(fd, new byte[0], 0, 0, -1);
        org.jbeam.bindings.libc.LibcFiles.writeHeap(fd, new byte[0], 0, 0, 0);
    }

    /** A handle no process owns and no reference names (read_file's own descriptor). */
    static FileHandle openUnregistered(Path p, int modes) {
        return FileHandle.unregistered(openFd(p, modes), p, modes);
    }

    private static int openFd(Path p, int modes) {
        int fd;
        try (Arena a = Arena.ofConfined()) {
            fd = Libc.openat(Fcntl.AT_FDCWD, cpath(a, p), openFlags(modes), FILE_MODE);
        }
        if (fd < 0) throw Posix.error(PosixErrors.atom(fd));
        if ((modes & (FileHandle.SKIP_TYPE_CHECK | FileHandle.DIRECTORY)) == 0 && isDirectory(fd)) {
            Libc.close(fd);
            throw Posix.error(Posix.EISDIR);
        }
        return fd;
    }

    static MemorySegment cpath(Arena a, Path p) {
        byte[] b = FileNames.bytes(p).toByteArray();
        MemorySegment s = a.allocate(b.length + 1);
        MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, 0, b.length);
        return s;
    }

    private static boolean isDirectory(int fd) {
        long[] st = LibcFiles.fstat(fd, new int[1]);
        return st == null || (st[0] & LibcFiles.S_IFMT) == LibcFiles.S_IFDIR;
    }

    /** fstat's st_size, or -1. */
    static long size(int fd) {
        long[] st = LibcFiles.fstat(fd, new int[1]);
        return st == null ? -1 : st[1];
    }

    /** efile_from_fd: only the JVM's standard descriptors 0–2 exist for Erlang code; others are ebadf. */
    public static FileHandle fromFd(int fd, ErlProcess owner) {
        if (fd < 0 || fd > 2) throw Posix.error(Posix.EBADF);
        int modes = fd == 0 ? FileHandle.READ : FileHandle.WRITE;
        return FileHandle.register(fd, Path.of("/proc/self/fd/" + fd), modes, true, owner);
    }

    private static long check(long r) {
        if (r < 0) throw Posix.error(PosixErrors.atom((int) r));
        return r;
    }

    /** seek_nif: lseek; a negative resulting position is einval. */
    public static Term seek(FileHandle h, EAtom mark, long offset) {
        int whence = switch (mark.name) {
            case "bof" -> LibcFiles.SEEK_SET;
            case "cur" -> LibcFiles.SEEK_CUR;
            default -> LibcFiles.SEEK_END;
        };
        return ETuple.of(EAtom.OK, EInteger.of(check(LibcFiles.lseek(h.fd, offset, whence))));
    }

    /** truncate_nif: ftruncate at the current position (which may extend the file). */
    public static Term truncate(FileHandle h) {
        long pos = check(LibcFiles.lseek(h.fd, 0, LibcFiles.SEEK_CUR));
        check(LibcFiles.ftruncate(h.fd, pos));
        return EAtom.OK;
    }

    /** allocate_nif: fallocate(fd, 0, offset, length): the file grows to at least offset + length. */
    public static Term allocate(FileHandle h, long offset, long length) {
        if (!h.has(FileHandle.WRITE)) throw Posix.error(Posix.EBADF);
        if (length == 0) throw Posix.error(Posix.EINVAL);
        if (offset > Long.MAX_VALUE - length) throw Posix.error(EAtom.of("efbig"));
        long size = check(size(h.fd));
        if (offset + length > size) check(LibcFiles.ftruncate(h.fd, offset + length));
        return EAtom.OK;
    }

    /** A blocking pread of up to {@code size} bytes (loops on short reads until eof). */
    static byte[] preadFully(FileHandle h, long offset, int size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(Math.max(1, size));
            int got = 0;
            while (got < size) {
                long n = check(Libc.pread(h.fd, buf.asSlice(got), size - got, offset + got));
                if (n == 0) break;
                got += (int) n;
            }
            return buf.asSlice(0, got).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /**
     * ipread_s32bu_p32bu_nif: reads the pointer {@code <<Size:32, Offset:32>>} at {@code offset}
     * and then up to Size bytes at Offset: {ok, {Size, Offset, Data | eof}} or eof. DETS' small
     * random reads: synchronous.
     */
    public static Term ipread(FileHandle h, long offset, long maxSize) {
        byte[] ptr = preadFully(h, offset, 8);
        if (ptr.length < 8) return Posix.EOF;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(ptr);
        long size = b.getInt() & 0xFFFFFFFFL, at = b.getInt() & 0xFFFFFFFFL;
        if (size > maxSize) return Posix.EOF;
        if (size > Integer.MAX_VALUE - 16) throw Posix.error(Posix.ENOMEM);
        byte[] data = preadFully(h, at, (int) size);
        Term payload = data.length == 0 ? Posix.EOF : EBitString.of(data);
        return ETuple.of(EAtom.OK, ETuple.of(ESmall.of(size), ESmall.of(at), payload));
    }
}
