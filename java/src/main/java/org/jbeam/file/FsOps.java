package org.jbeam.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

import org.jbeam.term.*;

/**
 * Path-level file system operations of prim_file's NIF, with the errno adjustments erts'
 * unix_prim_file.c makes (unlink of a directory is eperm; rmdir/rename ENOTEMPTY is eexist;
 * rmdir of the working directory is einval; renaming "/" is einval).
 */
public final class FsOps {
    private FsOps() {}

    /** read_link_nif: the link's target bytes. */
    public static Term readLink(Path p) throws IOException {
        return ETuple.of(EAtom.OK, FileNames.bytes(Files.readSymbolicLink(p)));
    }

    /** list_dir_nif: entry names (no "." and "..") as binaries, in reverse readdir order like the C NIF. */
    public static Term listDir(Path p) throws IOException {
        Term l = ENil.NIL;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
            for (Path e : ds) l = new ECons(FileNames.bytes(e.getFileName()), l);
        }
        return ETuple.of(EAtom.OK, l);
    }

    /** make_hard_link_nif: link(existing, new). */
    public static Term makeHardLink(Path existing, Path link) throws IOException {
        Files.createLink(link, existing);
        return EAtom.OK;
    }

    /** make_soft_link_nif: symlink(target, new); the target is stored as given, not resolved. */
    public static Term makeSoftLink(byte[] target, Path link) throws IOException {
        Files.createSymbolicLink(link, Path.of(FileNames.string(target)));
        return EAtom.OK;
    }

    /** rename_nif: rename(2) (replaces an existing target). */
    public static Term rename(Path from, Path to, boolean fromIsRoot) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            EAtom errno = Posix.of(e);
            if (errno == Posix.ENOTEMPTY) throw Posix.error(Posix.EEXIST);
            if (fromIsRoot) throw Posix.error(Posix.EINVAL);
            throw e;
        }
        return EAtom.OK;
    }

    /** make_dir_nif: mkdir(path, 0777). */
    public static Term makeDir(Path p) throws IOException {
        Files.createDirectory(p);
        return EAtom.OK;
    }

    /**
     * del_file_nif: unlink; a directory is eperm (Linux says EISDIR, erts corrects it). A large
     * regular file is freed after the call returns ({@link DeferredRelease}).
     */
    public static Term delFile(Path p) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attrs.isDirectory()) throw Posix.error(Posix.EPERM);
        int held = attrs.isRegularFile() ? DeferredRelease.hold(p, attrs.size()) : -1;
        try {
            Files.delete(p);
        } catch (IOException | RuntimeException e) {
            if (held >= 0) DeferredRelease.drop(held);
            throw e;
        }
        if (held >= 0) DeferredRelease.release(held, attrs.size());
        return EAtom.OK;
    }

    /** del_dir_nif: rmdir; a non-directory (also a symlink to one) is enotdir, non-empty is eexist. */
    public static Term delDir(Path p) throws IOException {
        if (!Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isDirectory())
            throw Posix.error(Posix.ENOTDIR);
        try {
            Files.delete(p);
        } catch (IOException e) {
            if (Posix.of(e) != Posix.ENOTEMPTY) throw e;
            boolean isCwd;
            try { isCwd = Files.isSameFile(p, FileNames.cwd()); } catch (IOException x) { isCwd = false; }
            throw Posix.error(isCwd ? Posix.EINVAL : Posix.EEXIST);
        }
        return EAtom.OK;
    }

    /** set_permissions_nif: chmod with the set-id and rwx bits (retrying without set-id bits). */
    public static Term setPermissions(Path p, long permissions) throws IOException {
        int mode = (int) (permissions & 06777);
        try {
            Files.setAttribute(p, "unix:mode", mode);
        } catch (IOException e) {
            Files.setAttribute(p, "unix:mode", mode & 0777);
        }
        return EAtom.OK;
    }

    /** set_owner_nif: chown; -1 leaves an id unchanged. */
    public static Term setOwner(Path p, int uid, int gid) throws IOException {
        Files.setAttribute(p, "unix:uid", uid); // chown(p, uid, -1); also checks the path when uid is -1
        if (gid != -1) Files.setAttribute(p, "unix:gid", gid);
        return EAtom.OK;
    }

    /** set_time_nif: utime(access, modify); the change time cannot be set. */
    public static Term setTime(Path p, long atime, long mtime) throws IOException {
        Files.getFileAttributeView(p, BasicFileAttributeView.class)
                .setTimes(FileTime.fromMillis(mtime * 1000), FileTime.fromMillis(atime * 1000), null);
        return EAtom.OK;
    }

    /** get_cwd_nif. */
    public static Term getCwd() { return ETuple.of(EAtom.OK, FileNames.bytes(FileNames.cwd())); }

    /** set_cwd_nif. */
    public static Term setCwd(Path p) throws IOException {
        FileNames.setCwd(p);
        return EAtom.OK;
    }
}
