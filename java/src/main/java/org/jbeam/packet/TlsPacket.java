package org.jbeam.packet;

import org.jbeam.term.*;

/**
 * packet_parse_ssl: a TLS record (or an SSLv2 client hello) as {ssl_tls, Owner, ContentType,
 * {Major, Minor}, Data}. Owner is [] from decode_packet and the socket from the driver.
 */
public final class TlsPacket {
    private TlsPacket() {}

    public static final EAtom SSL_TLS = EAtom.of("ssl_tls");

    public static Term parse(Term owner, byte[] d, int off, int len) {
        int type, major, minor;
        byte[] body;
        if ((d[off] & 0x80) != 0 && d[off + 2] == 1) {
            // SSLv2 client hello <<1:1, Len:15, 1:8, Version:16, ...>>: handshake type 22, the data
            // gets a <<1:8, Length:24>> handshake header.
            type = 22;
            major = d[off + 3] & 0xFF;
            minor = d[off + 4] & 0xFF;
            int n = len - 3;
            body = new byte[4 + n];
            body[0] = 1;
            body[1] = (byte) (n >>> 16);
            body[2] = (byte) (n >>> 8);
            body[3] = (byte) n;
            System.arraycopy(d, off + 3, body, 4, n);
        } else {
            type = d[off] & 0xFF;
            major = d[off + 1] & 0xFF;
            minor = d[off + 2] & 0xFF;
            body = java.util.Arrays.copyOfRange(d, off + 5, off + len);
        }
        return ETuple.of(SSL_TLS, owner, ESmall.of(type), ETuple.of(ESmall.of(major), ESmall.of(minor)), EBitString.of(body));
    }
}
