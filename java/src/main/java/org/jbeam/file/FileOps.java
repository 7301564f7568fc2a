package org.jbeam.file;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jbeam.term.*;

/**
 * Operations on open files, following erts' unix_prim_file.c: open flags (efile_open/get_flags),
 * full-buffer reads and writes (efile_readv/writev loop until done or EOF), positioned I/O, seek,
 * truncate at the current position, allocate, sync, and the indirect read used by DETS.
 */
public final class FileOps {
    private FileOps() {}

    /** efile_translate_modelist's defaulting: append/exclusive imply write; neither read nor write means read. */
    public static int normalizeModes(int modes) {
        if ((modes & (FileHandle.APPEND | FileHandle.EXCLUSIVE)) != 0) return modes | FileHandle.WRITE;
        if ((modes & (FileHandle.READ | FileHandle.WRITE)) == 0) return modes | FileHandle.READ;
        return modes;
    }

    /** efile_open: O_RDONLY / O_WRONLY|O_CREAT|O_TRUNC / O_RDWR|O_CREAT, plus O_APPEND, O_EXCL, O_SYNC, O_DIRECTORY. */
    public static FileHandle open(Path p, int modes) throws IOException {
        boolean read = (modes & FileHandle.READ) != 0, write = (modes & FileHandle.WRITE) != 0;
        boolean append = (modes & FileHandle.APPEND) != 0, dir = (modes & FileHandle.DIRECTORY) != 0;
        boolean skipCheck = (modes & FileHandle.SKIP_TYPE_CHECK) != 0;
        Set<OpenOption> opts = new HashSet<>();
        if (read) opts.add(StandardOpenOption.READ);
        if (write) {
            opts.add(StandardOpenOption.WRITE);
            opts.add((modes & FileHandle.EXCLUSIVE) != 0 ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
            if (!read && !append) opts.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        boolean emulatedAppend = append && read;
        if (append && !read) opts.add(StandardOpenOption.APPEND);
        if ((modes & FileHandle.SYNC) != 0) opts.add(StandardOpenOption.SYNC);
        // O_DIRECTORY: an existing non-directory fails before anything is created or truncated.
        if (dir && Files.exists(p) && !Files.isDirectory(p)) throw Posix.error(Posix.ENOTDIR);
        FileChannel ch = FileChannel.open(p, opts);
        if (!skipCheck && !dir && Files.isDirectory(p)) {
            ch.close();
            throw Posix.error(Posix.EISDIR);
        }
        return FileHandle.register(ch, p, modes, emulatedAppend, false);
    }

    /** efile_from_fd: only the JVM's standard descriptors 0–2 exist for Erlang code; others are ebadf. */
    public static FileHandle fromFd(int fd) {
        FileChannel ch = switch (fd) {
            case 0 -> new FileInputStream(FileDescriptor.in).getChannel();
            case 1 -> new FileOutputStream(FileDescriptor.out).getChannel();
            case 2 -> new FileOutputStream(FileDescriptor.err).getChannel();
            default -> throw Posix.error(Posix.EBADF);
        };
        int modes = fd == 0 ? FileHandle.READ : FileHandle.WRITE;
        return FileHandle.register(ch, Path.of("/proc/self/fd/" + fd), modes, false, true);
    }

    /** read_nif: reads until {@code size} bytes or end of file; zero bytes read is eof. */
    public static Term read(FileHandle h, long size) throws IOException {
        byte[] data = readFully(h, -1, size);
        return data.length == 0 ? Posix.EOF : ETuple.of(EAtom.OK, EBitString.of(data));
    }

    /** pread_nif: as read at an absolute offset, leaving the position alone. */
    public static Term pread(FileHandle h, long offset, long size) throws IOException {
        byte[] data = readFully(h, offset, size);
        return data.length == 0 ? Posix.EOF : ETuple.of(EAtom.OK, EBitString.of(data));
    }

    private static byte[] readFully(FileHandle h, long offset, long size) throws IOException {
        if (size > Integer.MAX_VALUE - 16) throw Posix.error(Posix.ENOMEM);
        int want = (int) size;
        // Grow the buffer as data arrives rather than trusting a caller's huge size up front.
        ByteBuffer buf = ByteBuffer.allocate(Math.min(want, 1 << 16));
        long pos = offset;
        while (buf.position() < want) {
            if (!buf.hasRemaining()) {
                ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(want, (long) buf.capacity() * 2));
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
            int n = offset < 0 ? h.channel.read(buf) : h.channel.read(buf, pos);
            if (n <= 0) break;
            pos += n;
        }
        byte[] out = new byte[buf.position()];
        buf.flip();
        buf.get(out);
        return out;
    }

    /** write_nif: writes every binary of the I/O vector in order (emulated O_APPEND writes at the end). */
    public static Term write(FileHandle h, List<ByteBuffer> iov) throws IOException {
        if (h.emulatedAppend) h.channel.position(h.channel.size());
        for (ByteBuffer b : iov) while (b.hasRemaining()) h.channel.write(b);
        return EAtom.OK;
    }

    /** pwrite_nif: writes at an absolute offset (with O_APPEND, Linux appends regardless of offset). */
    public static Term pwrite(FileHandle h, long offset, List<ByteBuffer> iov) throws IOException {
        long pos = h.emulatedAppend ? h.channel.size() : offset;
        for (ByteBuffer b : iov) while (b.hasRemaining()) pos += h.channel.write(b, pos);
        return EAtom.OK;
    }

    /** seek_nif: lseek; a negative resulting position is einval. */
    public static Term seek(FileHandle h, EAtom mark, long offset) throws IOException {
        long base = switch (mark.name) {
            case "bof" -> 0;
            case "cur" -> h.channel.position();
            default -> h.channel.size();
        };
        long pos = base + offset;
        if (pos < 0 || ((base ^ pos) & (offset ^ pos)) < 0) throw Posix.error(Posix.EINVAL);
        h.channel.position(pos);
        return ETuple.of(EAtom.OK, EInteger.of(pos));
    }

    /** sync_nif: fdatasync (data only) or fsync. */
    public static Term sync(FileHandle h, boolean dataOnly) throws IOException {
        h.channel.force(!dataOnly);
        return EAtom.OK;
    }

    /** truncate_nif: ftruncate at the current position (which may extend the file). */
    public static Term truncate(FileHandle h) throws IOException {
        if (!h.has(FileHandle.WRITE)) throw Posix.error(Posix.EINVAL); // ftruncate on a read-only fd
        long pos = h.channel.position(), size = h.channel.size();
        if (pos < size) h.channel.truncate(pos);
        else if (pos > size) extend(h, pos);
        return EAtom.OK;
    }

    /** allocate_nif: fallocate(fd, 0, offset, length): the file grows to at least offset + length. */
    public static Term allocate(FileHandle h, long offset, long length) throws IOException {
        if (!h.has(FileHandle.WRITE)) throw Posix.error(Posix.EBADF);
        if (length == 0) throw Posix.error(Posix.EINVAL);
        if (offset > Long.MAX_VALUE - length) throw Posix.error(EAtom.of("efbig"));
        if (offset + length > h.channel.size()) extend(h, offset + length);
        return EAtom.OK;
    }

    /** Grows the file to {@code size} bytes of zeros without moving the position. */
    private static void extend(FileHandle h, long size) throws IOException {
        ByteBuffer zero = ByteBuffer.wrap(new byte[1]);
        while (zero.hasRemaining()) h.channel.write(zero, size - 1);
    }

    /**
     * ipread_s32bu_p32bu_nif: reads the pointer {@code <<Size:32, Offset:32>>} at {@code offset}
     * and then up to Size bytes at Offset: {ok, {Size, Offset, Data | eof}} or eof.
     */
    public static Term ipread(FileHandle h, long offset, long maxSize) throws IOException {
        byte[] ptr = readFully(h, offset, 8);
        if (ptr.length < 8) return Posix.EOF;
        ByteBuffer b = ByteBuffer.wrap(ptr);
        long size = b.getInt() & 0xFFFFFFFFL, at = b.getInt() & 0xFFFFFFFFL;
        if (size > maxSize) return Posix.EOF;
        byte[] data = readFully(h, at, size);
        Term payload = data.length == 0 ? Posix.EOF : EBitString.of(data);
        return ETuple.of(EAtom.OK, ETuple.of(ESmall.of(size), ESmall.of(at), payload));
    }
}
