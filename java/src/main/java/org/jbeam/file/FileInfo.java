package org.jbeam.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;

import org.jbeam.term.*;

/**
 * The raw #file_info{} record prim_file's read_info_nif/read_handle_info_nif build (prim_file_nif.c
 * build_file_info): {file_info, Size, Type, Access, ATime, MTime, CTime, Mode, Links, MajorDevice,
 * MinorDevice, Inode, Uid, Gid} with POSIX-second times (prim_file converts them) and the C
 * struct's 32-bit truncation of mode, links, devices, inode, uid and gid.
 */
public final class FileInfo {
    private FileInfo() {}

    private static final EAtom FILE_INFO = EAtom.of("file_info");
    private static final long MIN_FILETIME = -2145916800L, MAX_FILETIME = 253402300799L;
    private static final int S_IFMT = 0170000, S_IFDIR = 0040000, S_IFREG = 0100000, S_IFLNK = 0120000,
            S_IFCHR = 0020000, S_IFBLK = 0060000;

    /** read_info_nif: stat/lstat plus access(2)-based read/write access. */
    public static Term ofPath(Path p, boolean followLinks) throws IOException {
        Map<String, Object> a = followLinks ? Files.readAttributes(p, "unix:*")
                : Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS);
        boolean r = Files.isReadable(p), w = Files.isWritable(p);
        return build(a, access(r, w));
    }

    /** read_handle_info_nif: fstat (emulated by the handle's path) with owner/group/other access (check_access). */
    public static Term ofHandle(FileHandle h) throws IOException {
        Map<String, Object> a = Files.readAttributes(h.path, "unix:*");
        int mode = (Integer) a.get("mode"), uid = (Integer) a.get("uid"), gid = (Integer) a.get("gid");
        int bits;
        if (uid == Ids.euid()) bits = (mode >> 6) & 7;
        else if (gid == Ids.egid()) bits = (mode >> 3) & 7;
        else bits = mode & 7;
        return build(a, access((bits & 4) != 0, (bits & 2) != 0));
    }

    private static EAtom access(boolean r, boolean w) {
        return EAtom.of(r && w ? "read_write" : r ? "read" : w ? "write" : "none");
    }

    private static Term build(Map<String, Object> a, EAtom access) {
        int mode = (Integer) a.get("mode");
        String type = switch (mode & S_IFMT) {
            case S_IFCHR, S_IFBLK -> "device";
            case S_IFDIR -> "directory";
            case S_IFREG -> "regular";
            case S_IFLNK -> "symlink";
            default -> "other";
        };
        return ETuple.of(FILE_INFO, ESmall.of((Long) a.get("size")), EAtom.of(type), access,
                time(a.get("lastAccessTime")), time(a.get("lastModifiedTime")), time(a.get("ctime")),
                u32(mode), u32(((Number) a.get("nlink")).longValue()), u32((Long) a.get("dev")),
                u32((Long) a.get("rdev")), u32((Long) a.get("ino")), u32((Integer) a.get("uid")),
                u32((Integer) a.get("gid")));
    }

    private static Term time(Object t) {
        long s = ((FileTime) t).toInstant().getEpochSecond();
        return ESmall.of(Math.min(MAX_FILETIME, Math.max(MIN_FILETIME, s)));
    }

    private static Term u32(long v) { return ESmall.of(v & 0xFFFFFFFFL); }

    /** Effective user and group ids of this OS process (owner of /proc/self). */
    static final class Ids {
        private static int euid = -2, egid = -2;

        static synchronized int euid() { load(); return euid; }
        static synchronized int egid() { load(); return egid; }

        private static void load() {
            if (euid != -2) return;
            try {
                euid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
                egid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:gid");
            } catch (IOException | RuntimeException e) {
                euid = -1;
                egid = -1;
            }
        }
    }
}
