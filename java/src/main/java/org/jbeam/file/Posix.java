package org.jbeam.file;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.util.Map;

import org.jbeam.term.EAtom;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * POSIX error atoms as prim_file's NIF returns them ({@code erl_errno_id}): translation of the
 * JDK's I/O exceptions (whose reason text is the C library's strerror) back to errno names.
 */
public final class Posix {
    private Posix() {}

    public static final EAtom ENOENT = EAtom.of("enoent"), EACCES = EAtom.of("eacces"), EEXIST = EAtom.of("eexist"),
            ENOTDIR = EAtom.of("enotdir"), EISDIR = EAtom.of("eisdir"), ENOTEMPTY = EAtom.of("enotempty"),
            EBADF = EAtom.of("ebadf"), EINVAL = EAtom.of("einval"), EXDEV = EAtom.of("exdev"), ELOOP = EAtom.of("eloop"),
            EPERM = EAtom.of("eperm"), ENOTSUP = EAtom.of("enotsup"), ENOMEM = EAtom.of("enomem"), EIO = EAtom.of("eio"),
            ESPIPE = EAtom.of("espipe"), EOF = EAtom.of("eof");

    /** A failed file operation carrying its errno atom; caught by the BIF layer and returned as {error, Posix}. */
    public static final class Error extends RuntimeException {
        public final EAtom errno;
        public Error(EAtom errno) { super(errno.name, null, false, false); this.errno = errno; }
    }

    public static Error error(EAtom errno) { return new Error(errno); }

    public static ETuple tuple(EAtom errno) { return ETuple.of(EAtom.ERROR, errno); }

    /** strerror(3) texts of glibc → errno atoms. */
    private static final Map<String, String> STRERROR = Map.ofEntries(
            Map.entry("Operation not permitted", "eperm"), Map.entry("No such file or directory", "enoent"),
            Map.entry("Input/output error", "eio"), Map.entry("No such device or address", "enxio"),
            Map.entry("Bad file descriptor", "ebadf"), Map.entry("Permission denied", "eacces"),
            Map.entry("Device or resource busy", "ebusy"), Map.entry("File exists", "eexist"),
            Map.entry("Invalid cross-device link", "exdev"), Map.entry("No such device", "enodev"),
            Map.entry("Not a directory", "enotdir"), Map.entry("Is a directory", "eisdir"),
            Map.entry("Invalid argument", "einval"), Map.entry("Too many open files in system", "enfile"),
            Map.entry("Too many open files", "emfile"), Map.entry("Text file busy", "etxtbsy"),
            Map.entry("File too large", "efbig"), Map.entry("No space left on device", "enospc"),
            Map.entry("Illegal seek", "espipe"), Map.entry("Read-only file system", "erofs"),
            Map.entry("Too many links", "emlink"), Map.entry("Broken pipe", "epipe"),
            Map.entry("File name too long", "enametoolong"), Map.entry("Directory not empty", "enotempty"),
            Map.entry("Too many levels of symbolic links", "eloop"), Map.entry("Disk quota exceeded", "edquot"),
            Map.entry("Operation not supported", "enotsup"), Map.entry("Function not implemented", "enosys"),
            Map.entry("Resource temporarily unavailable", "eagain"), Map.entry("Cannot allocate memory", "enomem"),
            Map.entry("Value too large for defined data type", "eoverflow"), Map.entry("Stale file handle", "estale"));

    /** The errno atom for a JDK exception from a file operation. */
    public static EAtom of(Exception e) {
        if (e instanceof Error pe) return pe.errno;
        if (e instanceof NoSuchFileException) return ENOENT;
        if (e instanceof AccessDeniedException) return EACCES;
        if (e instanceof FileAlreadyExistsException) return EEXIST;
        if (e instanceof DirectoryNotEmptyException) return ENOTEMPTY;
        if (e instanceof NotDirectoryException) return ENOTDIR;
        if (e instanceof NotLinkException) return EINVAL;
        if (e instanceof FileSystemLoopException) return ELOOP;
        if (e instanceof AtomicMoveNotSupportedException) return EXDEV;
        if (e instanceof ClosedChannelException) return EBADF;
        String reason = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
        if (reason != null) {
            for (var en : STRERROR.entrySet()) if (reason.startsWith(en.getKey())) return EAtom.of(en.getValue());
        }
        return EIO;
    }

    /** The errno atom for an unchecked exception thrown by a channel (wrong access mode etc.). */
    public static EAtom ofUnchecked(RuntimeException e) {
        if (e instanceof Error pe) return pe.errno;
        if (e instanceof NonReadableChannelException || e instanceof NonWritableChannelException) return EBADF;
        if (e instanceof IllegalArgumentException) return EINVAL;
        throw e;
    }

    /** Runs a file operation, turning its failure into {error, Posix}. */
    public static Term call(IoOp op) {
        try {
            return op.run();
        } catch (IOException e) {
            return tuple(of(e));
        } catch (Error | NonReadableChannelException | NonWritableChannelException e) {
            return tuple(ofUnchecked(e));
        } catch (OutOfMemoryError e) {
            return tuple(ENOMEM);
        }
    }

    @FunctionalInterface
    public interface IoOp { Term run() throws IOException; }
}
