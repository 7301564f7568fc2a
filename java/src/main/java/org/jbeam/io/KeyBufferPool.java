package org.jbeam.io;

import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.libc.Libc;

/**
 * The one-shot receive buffers of {@link PollRing}'s keys when there are no multishot receives
 * (ADR 0062: kernels before 6.0, {@code -Djbeam.inet.multishot=false}, UDP's are its own), ring
 * thread only: malloc'd and pooled. A shared Arena per buffer (the first version) cost a JVM-wide
 * handshake at every close, in which the VM thread sleeps 1 ms whenever a thread is slow to answer:
 * per connection the dearest step of accept/connect/close (ADR 0021).
 */
final class KeyBufferPool {
    static final int MAX = Integer.getInteger("jbeam.inet.recvBufferPool", 256);

    private final MemorySegment[] pool = new MemorySegment[MAX];
    private int pooled;

    /** A buffer of {@link PollRing#RECV_BUF} bytes. */
    MemorySegment take() {
        return pooled > 0 ? pool[--pooled] : Libc.malloc(PollRing.RECV_BUF);
    }

    void give(MemorySegment b) {
        if (pooled < pool.length) pool[pooled++] = b;
        else Libc.free(b);
    }
}
