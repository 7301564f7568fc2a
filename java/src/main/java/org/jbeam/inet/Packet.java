package org.jbeam.inet;

import org.jbeam.packet.HttpPacket;
import org.jbeam.packet.PacketLength;
import org.jbeam.packet.TlsPacket;
import org.jbeam.term.*;

/**
 * Packet framing of the inet driver over erts' packet_get_length ({@link PacketLength}): every TCP
 * packet type (raw, 1, 2, 4, asn1, sunrm, cdr, fcgi, line, tpkt, http, httph, http_bin, httph_bin,
 * ssl_tls). {@link #frame} finds the next complete packet in a receive buffer, {@link #term} makes
 * it the term the driver delivers: the data for most types, a parsed term for the http and ssl_tls
 * types (inet_drv's packet callbacks).
 */
final class Packet {
    private Packet() {}

    static final int RAW = PacketLength.RAW, PB_1 = PacketLength.PB_1, PB_2 = PacketLength.PB_2, PB_4 = PacketLength.PB_4,
            LINE = PacketLength.LINE;

    static boolean supported(int type) { return type >= PacketLength.RAW && type <= PacketLength.HTTPH_BIN; }

    static int headerSize(int type) { return PacketLength.prefix(type); }

    /** The framing failed: the packet is invalid or longer than packet_size (emsgsize). */
    static final int[] ERROR = {-1, -1, -1};

    /**
     * The next packet in buf[0, len): {start, end, consumed} (its body is buf[start, end), it takes
     * consumed bytes), {@link #ERROR}, or null when more bytes are needed. A passive recv of raw
     * data may ask for want bytes. bufSize is the driver's buffer size (the buffer option): erts
     * truncates longer lines to it and, without packet_size, limits HTTP lines to it.
     * httpState is the socket's HTTP parser state, which the httph types set.
     */
    static int[] frame(byte[] buf, int len, int type, int packetSize, int bufSize, int want, int lineDelim, int[] httpState) {
        if (type == RAW) {
            if (len == 0) return null;
            if (want > 0) return len >= want ? new int[] {0, want, want} : null;
            return new int[] {0, len, len};
        }
        if (len == 0) return null;
        long plen = PacketLength.length(type, buf, 0, len, packetSize & 0xFFFFFFFFL, bufSize, lineDelim, httpState);
        if (plen < 0) return ERROR;
        if (plen == 0 || plen > len) return null;
        int start = PacketLength.bodyStart(type);
        return new int[] {start, start + PacketLength.bodyLength(type, buf, 0, (int) plen), (int) plen};
    }

    /** The header to prepend on output, or null if the data does not fit the header (emsgsize). */
    static byte[] header(int type, int size) {
        int h = headerSize(type);
        if (h == 0) return new byte[0];
        if (h < 4 && size >= (1 << (8 * h))) return null;
        byte[] r = new byte[h];
        for (int i = h - 1; i >= 0; i--) { r[i] = (byte) size; size >>>= 8; }
        return r;
    }

    static final EAtom HTTP = EAtom.of("http"), TCP = EAtom.of("tcp");

    /**
     * The framed packet f of buf as delivered: a binary (after {header, N} bytes as a list) or a
     * list, an HTTP term (binaries for the _bin types whatever the mode), or {ssl_tls, S, ...}.
     */
    static Term term(InetOptions o, Term port, byte[] buf, int[] f, int[] httpState) {
        if (PacketLength.isHttp(o.packet))
            return HttpPacket.parse(buf, 0, f[2], httpState,
                    o.packet == PacketLength.HTTP_BIN || o.packet == PacketLength.HTTPH_BIN ? HttpPacket.BINARIES : HttpPacket.LISTS);
        if (o.packet == PacketLength.SSL_TLS) return TlsPacket.parse(port, buf, 0, f[2]);
        int start = f[0], n = f[1] - f[0];
        if (!o.binary) return bytesToList(buf, start, n, ENil.NIL);
        int h = Math.min(o.header, n);
        EBitString bin = EBitString.of(java.util.Arrays.copyOfRange(buf, start + h, f[1]));
        return h == 0 ? bin : bytesToList(buf, start, h, bin);
    }

    /** The active-mode message: {tcp, S, Data}, {http, S, HttpPacket}, or the {ssl_tls, S, ...} term itself. */
    static Term activeMessage(int type, Term port, Term packet) {
        if (type == PacketLength.SSL_TLS) return packet;
        return ETuple.of(PacketLength.isHttp(type) ? HTTP : TCP, port, packet);
    }

    private static Term bytesToList(byte[] b, int off, int n, Term tail) {
        Term l = tail;
        for (int i = off + n - 1; i >= off; i--) l = new ECons(ESmall.of(b[i] & 0xFF), l);
        return l;
    }
}
