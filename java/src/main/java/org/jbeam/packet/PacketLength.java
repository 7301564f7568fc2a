package org.jbeam.packet;

/**
 * Packet framing shared by erlang:decode_packet/3 and the tcp_inet driver emulation: erts'
 * packet_get_length and packet_get_body (packet_parser.c). Types are the TCP_PB_* numbers that
 * prim_inet sends as the packet option value, so the driver can use them as they arrive.
 */
public final class PacketLength {
    private PacketLength() {}

    public static final int RAW = 0, PB_1 = 1, PB_2 = 2, PB_4 = 3, ASN1 = 4, SUNRM = 5, CDR = 6, FCGI = 7, LINE = 8,
            TPKT = 9, HTTP = 10, HTTPH = 11, SSL_TLS = 12, HTTP_BIN = 13, HTTPH_BIN = 14;

    private static final long INT_MAX = Integer.MAX_VALUE;

    public static boolean isHttp(int type) { return type == HTTP || type == HTTPH || type == HTTP_BIN || type == HTTPH_BIN; }

    /** Whether parsed packets of this type are terms (http, ssl_tls) rather than the framed bytes. */
    public static boolean parsed(int type) { return isHttp(type) || type == SSL_TLS; }

    /** The length prefix of {packet, 1|2|4} (also what the driver prepends on output). */
    public static int prefix(int type) {
        return switch (type) { case PB_1 -> 1; case PB_2 -> 2; case PB_4 -> 4; default -> 0; };
    }

    private static long u(byte[] d, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) v = (v << 8) | (d[off + i] & 0xFF);
        return v;
    }

    private static int indexOf(byte[] d, int from, int end, int b) {
        for (int i = from; i < end; i++) if ((d[i] & 0xFF) == b) return i;
        return -1;
    }

    /**
     * packet_get_length over d[off, off+n): the whole packet's length (header included) when known,
     * 0 when more bytes are needed and their number is unknown, -1 when the data is invalid or too
     * long. maxPlen is packet_size and truncLen line_length (the driver passes its buffer size); 0
     * means no limit, both are unsigned 32-bit. httpState[0] is the HTTP parser state: 0 expects a
     * request or status line, non-zero header lines (the httph types set it).
     */
    public static long length(int type, byte[] d, int off, int n, long maxPlen, long truncLen, int delimiter, int[] httpState) {
        long hlen, plen;
        switch (type) {
            case RAW -> { return n; }
            case PB_1, PB_2, PB_4, SUNRM -> {
                hlen = type == PB_1 ? 1 : type == PB_2 ? 2 : 4;
                if (n < hlen) return 0;
                plen = u(d, off, (int) hlen);
                if (type == SUNRM) plen &= 0x7FFFFFFFL;
            }
            case LINE -> {
                int nl = indexOf(d, off, off + n, delimiter);
                if (nl < 0) {
                    if (maxPlen != 0 && n > maxPlen) return -1;
                    if (truncLen != 0 && n >= truncLen) return truncLen;
                    return 0;
                }
                long len = nl - off + 1;
                if (maxPlen != 0 && len > maxPlen) return -1;
                if (truncLen != 0 && len > truncLen) return truncLen;
                return len;
            }
            case ASN1 -> {
                if (n < 2) return 0;
                int nn = n - 1, tp = off;
                if ((d[tp++] & 0x1f) == 0x1f) {   // long tag: continuation bytes have bit 8 set
                    while (nn > 0 && (d[tp] & 0x80) != 0) { tp++; nn--; }
                    if (nn < 2) return 0;
                    tp++;
                    nn--;
                }
                int length = d[tp] & 0x7f;
                if ((d[tp] & 0x80) != 0) {         // long length form: the next `length` bytes
                    tp++;
                    nn--;
                    if (nn < length) return 0;
                    if (length > 4) return -1;
                    plen = u(d, tp, length);
                    tp += length;
                } else {
                    tp++;
                    plen = length;
                }
                hlen = tp - off;
            }
            case CDR -> {
                hlen = 12;
                if (n < hlen) return 0;
                if (d[off] != 'G' || d[off + 1] != 'I' || d[off + 2] != 'O' || d[off + 3] != 'P') return -1;
                plen = (d[off + 6] & 1) != 0
                        ? u(d, off + 8, 1) | u(d, off + 9, 1) << 8 | u(d, off + 10, 1) << 16 | u(d, off + 11, 1) << 24
                        : u(d, off + 8, 4);
            }
            case FCGI -> {
                hlen = 8;
                if (n < hlen) return 0;
                if (d[off] != 1) return -1;
                plen = u(d, off + 4, 2) + (d[off + 6] & 0xFF);
            }
            case TPKT -> {
                hlen = 4;
                if (n < hlen) return 0;
                if (d[off] != 3) return -1;
                plen = (u(d, off + 2, 2) - hlen) & 0xFFFFFFFFL;  // unsigned in C: a length below 4 is huge
            }
            case SSL_TLS -> {
                hlen = 5;
                if (n < hlen) return 0;
                plen = (d[off] & 0x80) != 0 && d[off + 2] == 1
                        ? ((u(d, off, 2) & 0x7fff) - 3) & 0xFFFFFFFFL   // SSLv2 client hello
                        : u(d, off + 3, 2);
            }
            case HTTP, HTTPH, HTTP_BIN, HTTPH_BIN -> { return httpLength(type, d, off, n, maxPlen, truncLen, httpState); }
            default -> { return -1; }
        }
        long max = maxPlen == 0 ? INT_MAX - hlen : maxPlen;
        if (plen > max) return -1;
        return hlen + plen;
    }

    /**
     * An HTTP line ends at '\n'; in header state a line followed by a space or tab continues (and so
     * cannot be complete before the next byte is seen). line_length stands in for a missing packet_size.
     */
    private static long httpLength(int type, byte[] d, int off, int n, long maxPlen, long truncLen, int[] state) {
        if (type == HTTPH || type == HTTPH_BIN) state[0] = 1;
        if (n == 1 && d[off] == '\n' || n == 2 && d[off] == '\r' && d[off + 1] == '\n') return n;
        if (maxPlen == 0) maxPlen = truncLen;
        int from = off;
        while (true) {
            int nl = indexOf(d, from, off + n, '\n');
            if (nl < 0) {
                if (maxPlen != 0 && n >= maxPlen) return -1;
                return 0;
            }
            long plen = nl - off + 1;
            if (state[0] == 0) return maxPlen != 0 && plen > maxPlen ? -1 : plen;
            if (plen < n) {
                if ((d[nl + 1] == ' ' || d[nl + 1] == '\t') && plen > 2) {
                    from = nl + 1;             // the header's value continues on the next line
                    continue;
                }
                return maxPlen != 0 && plen > maxPlen ? -1 : plen;
            }
            return maxPlen != 0 && plen > maxPlen ? -1 : 0;
        }
    }

    /** packet_get_body: the body's start within a packet of length len (the length prefix skipped). */
    public static int bodyStart(int type) { return prefix(type); }

    /** packet_get_body: the body's length within a packet of length len starting at d[off]. */
    public static int bodyLength(int type, byte[] d, int off, int len) {
        return switch (type) {
            case PB_1, PB_2, PB_4 -> len - prefix(type);
            case FCGI -> len - (d[off + 6] & 0xFF);   // the padding is dropped
            default -> len;
        };
    }
}
