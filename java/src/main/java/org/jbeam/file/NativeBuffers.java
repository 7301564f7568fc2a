package org.jbeam.file;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Off-heap buffers for ring operations (the kernel reads and writes them while the Erlang
 * process is parked). Power-of-two size classes from 4 KiB to {@link #MAX} each keep a bounded
 * free list; every buffer has its own shared {@link Arena}, closed explicitly when the buffer is
 * dropped from a full free list, so a buffer's memory lives exactly from {@link #take} until the
 * completion that used it has called {@link #give} (never freed under an in-flight operation).
 * Pooling matters: closing a shared arena is a JVM-wide handshake, far dearer than the I/O.
 */
public final class NativeBuffers {
    private NativeBuffers() {}

    /** The largest buffer (and so the largest single ring read or write jbeam issues). */
    public static final int MAX = 1 << 20;
    private static final int MIN_SHIFT = 12, CLASSES = 20 - MIN_SHIFT + 1, KEEP = 16;

    /** A buffer with the arena that owns it. */
    public record Buf(Arena arena, MemorySegment seg) {}

    /** Free lists, LIFO so the buffer just used (still in the CPU cache) is the next one handed out. */
    private static final Buf[][] FREE = new Buf[CLASSES][KEEP];
    private static final int[] COUNT = new int[CLASSES];
    private static final AtomicInteger LIVE = new AtomicInteger();

    private static int cls(int size) {
        int shift = Math.max(MIN_SHIFT, 32 - Integer.numberOfLeadingZeros(Math.max(1, size) - 1));
        return shift - MIN_SHIFT;
    }

    /** A buffer of at least {@code size} bytes (at most {@link #MAX}). */
    public static Buf take(int size) {
        if (size > MAX) throw new IllegalArgumentException("buffer over " + MAX);
        int c = cls(size);
        synchronized (FREE[c]) {
            int n = COUNT[c];
            if (n > 0) {
                Buf b = FREE[c][--n];
                FREE[c][n] = null;
                COUNT[c] = n;
                return b;
            }
        }
        Arena a = Arena.ofShared();
        LIVE.incrementAndGet();
        return new Buf(a, a.allocate(1L << (c + MIN_SHIFT), 4096));
    }

    /** Returns a buffer whose operations have all completed. */
    public static void give(Buf b) {
        int c = cls((int) b.seg.byteSize());
        synchronized (FREE[c]) {
            if (COUNT[c] < KEEP) { FREE[c][COUNT[c]++] = b; return; }
        }
        LIVE.decrementAndGet();
        b.arena.close();
    }

    /** Buffers allocated and not yet freed (pooled ones included): for leak tests. */
    public static int live() { return LIVE.get(); }
}
