package org.jbeam.file;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.bindings.libc.Fcntl;
import org.jbeam.bindings.libc.Libc;

/**
 * Deleting a large file without waiting for the kernel to free it. unlink(2) of the last name of
 * a file nobody holds open truncates it there and then: every page-cache page and extent of it is
 * released before the call returns, 80-100 ms for a freshly written 1 GiB file on this machine's
 * ext4 (a third of the time it took to write it), on the thread that called file:delete. If the
 * inode is still referenced, unlink only removes the name and the truncation happens when the
 * last reference goes. So a delete of a regular file of at least {@link #MIN_BYTES} first opens
 * it O_PATH (a reference, no access rights needed, no data read), unlinks it, and leaves the
 * close to the thread {@code jbeam-file-release}.
 *
 * <p>What callers see is what unlink gives them: the name is gone when delete returns, with its
 * error if it fails. Only the disk space comes back a little later (the release thread's close,
 * milliseconds). Deleted bytes not yet released are bounded ({@link #MAX_PENDING_BYTES}); beyond
 * that a delete releases synchronously, so a program that creates and deletes big files in a
 * loop cannot run the disk full. ADR 0061.
 */
final class DeferredRelease {
    private DeferredRelease() {}

    /** Files smaller than this are deleted as before (unlink frees them quickly). */
    static final long MIN_BYTES = Long.getLong("jbeam.file.lazyDeleteMin", 16L << 20);
    static final long MAX_PENDING_BYTES = 8L << 30;

    private record Held(int fd, long bytes) {}

    private static final AtomicLong PENDING = new AtomicLong(), DEFERRED = new AtomicLong();

    /** The queue and its thread, made at the first deferred release (every regular file's delete asks {@link #hold}). */
    private static final class Releaser {
        static final LinkedBlockingQueue<Held> QUEUE = new LinkedBlockingQueue<>();
        static { Thread.ofPlatform().daemon().name("jbeam-file-release").start(DeferredRelease::releaseLoop); }
    }

    /**
     * A reference to the file at {@code p} (not following a final symlink), for a delete of a file
     * of {@code bytes} bytes; -1 when the delete should just unlink (small file, too much pending,
     * or the open failed).
     */
    static int hold(Path p, long bytes) {
        if (bytes < MIN_BYTES || PENDING.get() + bytes > MAX_PENDING_BYTES) return -1;
        try (Arena a = Arena.ofConfined()) {
            int fd = Libc.openat(Fcntl.AT_FDCWD, FileOps.cpath(a, p), Fcntl.O_PATH | Fcntl.O_NOFOLLOW | Fcntl.O_CLOEXEC, 0);
            return Math.max(fd, -1);
        }
    }

    /** After the unlink: the release thread closes {@code fd}, which frees the file. */
    static void release(int fd, long bytes) {
        PENDING.addAndGet(bytes);
        DEFERRED.incrementAndGet();
        Releaser.QUEUE.add(new Held(fd, bytes));
    }

    /** The unlink failed: nothing to defer. */
    static void drop(int fd) { Libc.close(fd); }

    /** Deleted bytes not yet released (tests). */
    static long pending() { return PENDING.get(); }

    /** Deletes whose release was deferred so far (tests). */
    static long deferred() { return DEFERRED.get(); }

    /**
     * The release thread runs at nice {@code -Djbeam.file.releaseNice} (default 10, a tenth of a
     * normal thread's share when they compete for a CPU): freeing a 1 GiB file is 80-100 ms of
     * kernel CPU time, and at nice 0 it took half of a CPU from whatever ran beside it. On two CPUs
     * with the JIT compiling, that was the scheduler thread writing the next file: six preemptions
     * of a tick in 50 ms, which the slow-write guard rightly read as contention. Not SCHED_IDLE:
     * starved on a busy machine, the deleted files' dirty pages stayed dirty, crossed the dirty
     * limits and throttled the writers (33-80 ms writes). ADR 0061's revision.
     */
    private static void lowerPriority() {
        int nice = Integer.getInteger("jbeam.file.releaseNice", 10);
        int rc = nice == 0 ? 0 : Libc.setNiceSelf(nice);
        if (rc != 0) System.err.println("jbeam: file release thread keeps its priority (setpriority: " + rc + ")");
    }

    private static void releaseLoop() {
        lowerPriority();
        while (true) {
            Held h;
            try {
                h = Releaser.QUEUE.take();
            } catch (InterruptedException e) {
                continue;
            }
            Libc.close(h.fd());
            PENDING.addAndGet(-h.bytes());
        }
    }
}
