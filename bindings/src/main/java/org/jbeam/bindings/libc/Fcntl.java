package org.jbeam.bindings.libc;

/**
 * {@code fcntl.h} / {@code asm-generic/fcntl.h} open flags and {@code AT_*} constants as Linux
 * x86-64 defines them (glibc 2.36). Values differ on some other architectures (e.g. aarch64's
 * O_DIRECTORY/O_NOFOLLOW/O_DIRECT/O_LARGEFILE); jbeam's FFM I/O targets x86-64.
 */
public final class Fcntl {
    private Fcntl() {}

    public static final int O_RDONLY = 0, O_WRONLY = 01, O_RDWR = 02, O_ACCMODE = 03;
    public static final int O_CREAT = 0100, O_EXCL = 0200, O_NOCTTY = 0400, O_TRUNC = 01000, O_APPEND = 02000,
            O_NONBLOCK = 04000, O_DSYNC = 010000, O_ASYNC = 020000, O_DIRECT = 040000, O_LARGEFILE = 0100000,
            O_DIRECTORY = 0200000, O_NOFOLLOW = 0400000, O_NOATIME = 01000000, O_CLOEXEC = 02000000,
            O_SYNC = 04010000, O_PATH = 010000000, O_TMPFILE = 020200000;
    public static final int AT_FDCWD = -100, AT_SYMLINK_NOFOLLOW = 0x100, AT_REMOVEDIR = 0x200,
            AT_SYMLINK_FOLLOW = 0x400, AT_EMPTY_PATH = 0x1000;
}
