package org.jbeam.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jbeam.bindings.libc.Errno;
import org.jbeam.bindings.liburing.IoUring;
import org.jbeam.bindings.liburing.IoUringParams;
import org.jbeam.bindings.liburing.IoUringProbe;

import static org.jbeam.bindings.liburing.LibUring.*;

/** What the kernel offers {@link PollRing}: whether socket polls on io_uring work at all, and multishot receives. */
final class PollRingProbe {
    private PollRingProbe() {}

    private static final int[] NEEDED_OPS = {IORING_OP_POLL_ADD, IORING_OP_POLL_REMOVE, IORING_OP_READ, IORING_OP_RECV,
            IORING_OP_ASYNC_CANCEL};

    /**
     * Multishot receives with a buffer ring need kernel 6.0 (buffer rings 5.19, IORING_RECV_MULTISHOT
     * 6.0). The probe has no entry for an ioprio flag: IORING_OP_SEND_ZC, also new in 6.0, dates the kernel.
     */
    static boolean multishotSupported(MemorySegment ring, MemorySegment params) {
        if ((IoUringParams.features(params) & IoUringParams.IORING_FEAT_NODROP) == 0) return false;
        MemorySegment probe = io_uring_get_probe_ring(ring);
        if (probe.equals(MemorySegment.NULL)) return false;
        try {
            return IoUringProbe.opcodeSupported(IoUringProbe.view(probe), IORING_OP_SEND_ZC);
        } finally {
            io_uring_free_probe(probe);
        }
    }

    private static volatile String reason;
    private static volatile boolean probed;

    /** Null if socket polls on io_uring work here, else why not. */
    static String unavailableReason() {
        if (!probed) {
            synchronized (PollRingProbe.class) {
                if (!probed) { reason = probe(); probed = true; }
            }
        }
        return reason;
    }

    private static String probe() {
        String base = IoUringRing.unavailableReason();
        if (base != null) return base;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(IoUring.LAYOUT), p = a.allocate(IoUringParams.LAYOUT);
            int rc = io_uring_queue_init_params(4, r, p);
            if (rc < 0) return "io_uring_queue_init_params: " + Errno.name(-rc);
            try {
                // poll updates (5.13) and one CQE per event without drops
                if ((IoUringParams.features(p) & IoUringParams.IORING_FEAT_NODROP) == 0) return "kernel lacks IORING_FEAT_NODROP";
                MemorySegment probe = io_uring_get_probe_ring(r);
                if (probe.equals(MemorySegment.NULL)) return "io_uring_get_probe_ring failed";
                try {
                    MemorySegment view = IoUringProbe.view(probe);
                    for (int op : NEEDED_OPS)
                        if (!IoUringProbe.opcodeSupported(view, op)) return "kernel does not support io_uring opcode " + op;
                    // IORING_OP_MSG_RING (5.18) comes after poll updates (5.13): its presence dates the kernel.
                    if (!IoUringProbe.opcodeSupported(view, IORING_OP_MSG_RING)) return "kernel too old for poll updates";
                } finally {
                    io_uring_free_probe(probe);
                }
            } finally {
                io_uring_queue_exit(r);
            }
        } catch (UnsatisfiedLinkError e) {
            return e.getMessage();
        }
        return null;
    }
}
