package org.jbeam.runtime;

/**
 * A port that can carry an Erlang distribution connection ({@code erlang:setnode/3} hands the
 * connected tcp_inet port of a finished handshake to the runtime, as erts does). After
 * {@link #attach} every complete packet goes to the receiver instead of the owning process; the
 * owner still gets {@code {tcp_closed, S}} and ticks still go through ordinary port sends.
 */
public interface DistPort {
    /** Where the connection's incoming packets go. Called with the port's lock held, in arrival order. */
    interface Receiver {
        /** {@code owned}: the array holds this packet alone and is never written again (its large binaries may view it). */
        void packet(byte[] data, int off, int len, boolean owned);
        /** The socket closed or failed, or the port exited with {@code reason} (null: connection_closed). */
        void closed(org.jbeam.term.Term reason);
        /** Output was written (or taken): the queue may now be below the busy limit. Cheap when not busy. */
        void drained();
    }

    /** Starts delivering packets (including any already buffered) to {@code r}. */
    void attach(Receiver r);

    /**
     * Queues one packet given as buffers to write in order (framed as the port's packet option
     * says); false if the socket is closed. The buffers become the port's; the arrays they wrap may
     * be shared (a large binary's own bytes) and are only read.
     */
    boolean sendPacket(java.nio.ByteBuffer[] packet);

    /** Queues several packets in order with one lock and as few writes as possible. */
    boolean sendPackets(java.util.List<java.nio.ByteBuffer[]> packets);

    /** disconnect_node/1: the port exits with reason killed (its owner, linked, goes with it). */
    void closeDist();

    /** Bytes queued for output and not yet written (or taken by the controller); any thread may ask. */
    long pendingBytes();

    /** dist_get_stat: packets read, packets written, bytes still queued for output. */
    long[] distStats();
}
