package org.jbeam.inet;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * The inet driver's option state and its setopts/getopts byte encodings (INET_OPT_* / INET_LOPT_* codes
 * from inet_int.hrl; values are big-endian 32-bit ints, linger is two, active multi adds a 16-bit count).
 */
final class InetOptions implements Cloneable {
    static final int REUSEADDR = 0, KEEPALIVE = 1, LINGER = 3, SNDBUF = 6, RCVBUF = 7, NODELAY = 10,
            HEADER = 21, ACTIVE = 22, PACKET = 23, MODE = 24, DELIVER = 25, EXITONCLOSE = 26, SEND_TIMEOUT = 30,
            PACKET_SIZE = 32, RAW = 34, SEND_TIMEOUT_CLOSE = 35, NETNS = 38, LINE_DELIM = 40, BIND_TO_DEVICE = 42,
            IPV6_V6ONLY = 16, READ_PACKETS = 33, BUFFER = 20;
    static final int PASSIVE = 0, ACTIVE_TRUE = 1, ONCE = 2, MULTI = 3;

    int active = PASSIVE, activeN;
    boolean binary, exitOnClose = true, sendTimeoutClose;
    /** The buffer option was given: recbuf no longer raises it (inet_drv's bufsz_set). */
    boolean bufferSet;
    /** The buffer option's value, kept here for the receive path (other holds it for getopts). */
    private int buffer = 1460;
    int packet = Packet.RAW, packetSize, header, lineDelim = '\n';
    long sendTimeout = -1;
    /** Other options: last value bytes set, returned as is by getopts. */
    Map<Integer, byte[]> other = new HashMap<>();

    /** Active-mode change requested by the last setopts: null if none. */
    boolean activeChanged;
    /** Set when {active, N} drove the counter to zero or below (tcp_passive is due). */
    boolean passiveDue;

    @Override
    public InetOptions clone() {
        try {
            InetOptions o = (InetOptions) super.clone();
            o.other = new HashMap<>(other);
            return o;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    private static final Map<Integer, byte[]> DEFAULTS = new HashMap<>();
    static {
        def(BUFFER, 1460); def(DELIVER, 1); def(27, 8192); def(28, 4096); def(SNDBUF, 16384); def(RCVBUF, 131072);
        def(36, 8192); def(37, 4096); def(46, 64);
        DEFAULTS.put(LINGER, new byte[8]);
    }

    private static void def(int code, int v) { byte[] b = new byte[4]; InetCodec.put32(b, 0, v); DEFAULTS.put(code, b); }

    /** Parses a setopts buffer; returns false on a malformed or unsupported option (einval). */
    boolean set(byte[] d, java.util.function.BiConsumer<Integer, byte[]> socketOpt) {
        int i = 0;
        while (i < d.length) {
            int code = d[i++] & 0xFF;
            int n = switch (code) {
                case LINGER -> 8;
                case ACTIVE -> i + 4 <= d.length && InetCodec.i32(d, i) == MULTI ? 6 : 4;
                case RAW -> i + 12 <= d.length ? 12 + InetCodec.i32(d, i + 8) : -1;
                case NETNS, BIND_TO_DEVICE -> i + 4 <= d.length ? 4 + InetCodec.i32(d, i) : -1;
                case 11, 14, 15 -> -1;
                default -> 4;
            };
            if (n < 0 || i + n > d.length) return false;
            byte[] v = java.util.Arrays.copyOfRange(d, i, i + n);
            i += n;
            int x = n >= 4 ? InetCodec.i32(v, 0) : 0;
            switch (code) {
                case ACTIVE -> {
                    activeChanged = true;
                    if (x == MULTI) {
                        int add = (short) InetCodec.u16(v, 4);
                        int cnt = (active == MULTI ? activeN : 0) + add;
                        if (cnt > 32767) return false;
                        if (cnt <= 0) { active = PASSIVE; activeN = 0; passiveDue = true; }
                        else { active = MULTI; activeN = cnt; }
                    } else { active = x; activeN = 0; }
                }
                case PACKET -> { if (!Packet.supported(x)) return false; packet = x; }
                case MODE -> binary = x == 1;
                case HEADER -> header = x;
                case PACKET_SIZE -> packetSize = x;
                case EXITONCLOSE -> exitOnClose = x != 0;
                case SEND_TIMEOUT -> sendTimeout = x;
                case SEND_TIMEOUT_CLOSE -> sendTimeoutClose = x != 0;
                case LINE_DELIM -> lineDelim = x & 0xFF;
                case LINGER -> {
                    // As Linux's SO_LINGER: turning lingering off keeps the time set before (getopts shows it).
                    byte[] old = other.get(LINGER);
                    if (x == 0 && old != null) System.arraycopy(old, 4, v, 4, 4);
                    other.put(code, v);
                    socketOpt.accept(code, v);
                }
                default -> {
                    if (code == BUFFER) { bufferSet = true; buffer = x; }
                    other.put(code, v);
                    socketOpt.accept(code, v);
                }
            }
        }
        return true;
    }

    /** Encodes getopts replies for the requested codes; null on einval. */
    byte[] get(byte[] req, boolean inet6) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < req.length; i++) {
            int code = req[i] & 0xFF;
            byte[] v = switch (code) {
                case ACTIVE -> active == MULTI ? new byte[] {0, 0, 0, MULTI, (byte) (activeN >> 8), (byte) activeN} : int32(active);
                case PACKET -> int32(packet);
                case MODE -> int32(binary ? 1 : 0);
                case HEADER -> int32(header);
                case PACKET_SIZE -> int32(packetSize);
                case EXITONCLOSE -> int32(exitOnClose ? 1 : 0);
                case SEND_TIMEOUT -> int32(sendTimeout);
                case SEND_TIMEOUT_CLOSE -> int32(sendTimeoutClose ? 1 : 0);
                case LINE_DELIM, RAW -> null;
                case IPV6_V6ONLY, READ_PACKETS -> inet6 && code == IPV6_V6ONLY ? other.getOrDefault(code, int32(0)) : new byte[0];
                default -> other.getOrDefault(code, DEFAULTS.getOrDefault(code, int32(0)));
            };
            if (v == null) return null;
            if (v.length == 0) continue;
            out.write(code);
            out.writeBytes(v);
        }
        return out.toByteArray();
    }

    /** The driver's receive buffer size (the buffer option): lines are truncated to it, HTTP lines limited by it. */
    int buffer() { return buffer; }

    /** Sets the buffer size as the driver adjusted it (getopts reports it). */
    void buffer(int v) {
        buffer = v;
        other.put(BUFFER, int32(v));
    }

    static byte[] int32(long v) { byte[] b = new byte[4]; InetCodec.put32(b, 0, v); return b; }

    /**
     * A socket-level option just set (by {@link #set}) takes effect on the socket's channel: the
     * connected channel, or for SO_REUSEADDR the listening one. inet_drv's buffer is at least 1,
     * and a larger recbuf raises it unless it was set explicitly.
     */
    void apply(int code, byte[] v, java.nio.channels.SocketChannel ch, java.nio.channels.ServerSocketChannel srv) {
        int x = InetCodec.i32(v, 0);
        if (code == BUFFER && x < 1) buffer(1);
        if (code == RCVBUF && !bufferSet && x > buffer()) buffer(x);
        try {
            if (ch != null) {
                switch (code) {
                    case NODELAY -> ch.setOption(java.net.StandardSocketOptions.TCP_NODELAY, x != 0);
                    case KEEPALIVE -> ch.setOption(java.net.StandardSocketOptions.SO_KEEPALIVE, x != 0);
                    case REUSEADDR -> ch.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, x != 0);
                    case SNDBUF -> ch.setOption(java.net.StandardSocketOptions.SO_SNDBUF, x);
                    case RCVBUF -> ch.setOption(java.net.StandardSocketOptions.SO_RCVBUF, x);
                    default -> { }
                }
            } else if (srv != null && code == REUSEADDR) {
                srv.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, x != 0);
            }
        } catch (java.io.IOException | RuntimeException e) {
            // unsupported on this channel: the value is still remembered for getopts
        }
    }
}
