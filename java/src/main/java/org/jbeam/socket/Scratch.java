package org.jbeam.socket;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

import org.jbeam.bindings.libc.Libc;

/**
 * Per-thread native memory for the socket NIF's system calls: a data buffer (send's bytes, recv's
 * target), an address area, an int and a long cell. Every NIF call finishes its system call on its own
 * thread before returning, so one set per thread suffices; a confined Arena per call (malloc + free
 * of each segment) cost measurably more per round trip. Buffers above {@link #CAP} are malloc'd for
 * the call and freed by {@link #done}. Never freed otherwise: threads are the few scheduler threads.
 */
final class Scratch {
    private static final int CAP = 256 * 1024;
    private static final ThreadLocal<Scratch> MINE = ThreadLocal.withInitial(Scratch::new);

    private MemorySegment data = Libc.malloc(16 * 1024);
    final MemorySegment addr = Libc.malloc(SockAddrs.STORAGE), cell = Libc.malloc(4), cell8 = Libc.malloc(8);
    /** Hands out zeroed slices of {@link #addr} (one address per call). */
    final SegmentAllocator addrAlloc = (size, align) -> addr.asSlice(0, size).fill((byte) 0);

    static Scratch get() { return MINE.get(); }

    /** A buffer of at least {@code n} bytes; give it back with {@link #done}. */
    MemorySegment data(long n) {
        if (n <= data.byteSize()) return data;
        if (n > CAP) return Libc.malloc(n);
        Libc.free(data);
        data = Libc.malloc(CAP);
        return data;
    }

    /** Frees a buffer {@link #data} malloc'd for one call only. */
    void done(MemorySegment buf) {
        if (buf != data) Libc.free(buf);
    }
}
