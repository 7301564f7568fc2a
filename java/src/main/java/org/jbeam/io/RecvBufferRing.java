package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.libc.Libc;
import org.jbeam.bindings.liburing.IoUringBufRing;
import org.jbeam.bindings.liburing.LibUring;

/**
 * The socket ring's provided buffers (ADR 0062): one buffer group of {@link #COUNT} buffers of
 * {@link #SIZE} bytes, registered as a buffer ring, from which every multishot receive of the ring
 * takes a buffer per completion. Memory is then a fixed few MiB for the whole VM instead of one
 * receive buffer per socket with a receive armed (8 KiB × 18,000 = 144 MiB for 9,000 connections with
 * both ends in one VM, ADR 0016/0039).
 *
 * <p>Ring thread only. A buffer is the kernel's from the moment it is published until its completion
 * is reaped; the ring thread hands its bytes to the listener and gives it back at once ({@link #give});
 * given-back buffers are published together by {@link #publish} after each batch of completions, one
 * release store of the tail. Nothing is ever freed while registered: the memory lives as long as the
 * ring (a daemon thread's, i.e. the VM's).
 */
final class RecvBufferRing {
    /** Buffer group id of the socket ring's receive buffers. */
    static final int BGID = 0;
    static final int COUNT = Integer.highestOneBit(Math.max(2, Math.min(32768, Integer.getInteger("jbeam.inet.recvBuffers", 1024))));
    static final int SIZE = Integer.getInteger("jbeam.inet.recvBuffer", 8 * 1024);

    private final MemorySegment br;
    /** The buffers, contiguous, {@link #SIZE} bytes each: malloc'd, so only pages the kernel writes become resident. */
    private final MemorySegment memory;
    private final int mask;
    /** Buffers given back since the last {@link #publish}. */
    private int pending;
    /** Completions that carried a buffer, and those that found none (-ENOBUFS): erlang:system_info({jbeam, socket_receives}). */
    long filled, starved;

    private RecvBufferRing(MemorySegment br, MemorySegment memory) {
        this.br = br;
        this.memory = memory;
        this.mask = IoUringBufRing.mask(COUNT);
        IoUringBufRing.init(br);
        for (int bid = 0; bid < COUNT; bid++) IoUringBufRing.add(br, memory.address() + (long) bid * SIZE, SIZE, bid, mask, bid);
        IoUringBufRing.advance(br, COUNT);
    }

    /**
     * Registers the buffer ring with {@code ring} (a {@code struct io_uring}); on the ring's submitter
     * thread (SINGLE_ISSUER). Returns the ring, or a String saying why not.
     */
    static Object register(MemorySegment ring, Arena arena) {
        MemorySegment br = arena.allocate((long) COUNT * IoUringBufRing.BUF_SIZE, 4096);
        MemorySegment reg = arena.allocate(IoUringBufRing.REG_LAYOUT);
        IoUringBufRing.reg(reg, br, COUNT, BGID);
        int rc = LibUring.io_uring_register_buf_ring(ring, reg, 0);
        if (rc < 0) return "io_uring_register_buf_ring: " + Errno.name(-rc);
        MemorySegment mem = Libc.malloc((long) COUNT * SIZE);
        return new RecvBufferRing(br, mem);
    }

    /** The bytes of buffer {@code bid} (valid until it is given back). */
    MemorySegment buffer(int bid) { return memory.asSlice((long) bid * SIZE, SIZE); }

    /** Gives buffer {@code bid} back; the kernel sees it after the next {@link #publish}. */
    void give(int bid) {
        filled++;
        IoUringBufRing.add(br, memory.address() + (long) bid * SIZE, SIZE, bid, mask, pending++);
    }

    /** Publishes the buffers given back since the last call. */
    void publish() {
        if (pending == 0) return;
        IoUringBufRing.advance(br, pending);
        pending = 0;
    }

    /** For the log line. */
    String describe() { return "multishot receives, " + COUNT + " × " + SIZE / 1024 + " KiB provided buffers"; }
}
