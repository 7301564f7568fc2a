package org.jbeam.bif;

import org.jbeam.packet.HttpPacket;
import org.jbeam.packet.PacketLength;
import org.jbeam.packet.TlsPacket;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang:decode_packet/3 (erl_bif_port.c): splits one packet off a binary with the framing of
 * {@link PacketLength} and, for the http and ssl_tls types, parses it into a term
 * ({@link HttpPacket}, {@link TlsPacket}). Each call starts in HTTP state 0, so an http_bin line
 * is a request or status line and an httph_bin line a header.
 */
final class DecodePacket {
    private DecodePacket() {}

    private static final EAtom MORE = EAtom.of("more"), INVALID = EAtom.of("invalid");

    static void register(BifTable t) {
        t.bif3("erlang", "decode_packet", DecodePacket::decode);
    }

    private static int type(Term t) {
        if (t instanceof ESmall s) {
            return switch ((int) Math.max(-1, Math.min(s.value, 5))) {
                case 0 -> PacketLength.RAW; case 1 -> PacketLength.PB_1; case 2 -> PacketLength.PB_2; case 4 -> PacketLength.PB_4;
                default -> throw ErlangException.badarg();
            };
        }
        if (!(t instanceof EAtom a)) throw ErlangException.badarg();
        return switch (a.name) {
            case "raw" -> PacketLength.RAW; case "line" -> PacketLength.LINE; case "asn1" -> PacketLength.ASN1;
            case "sunrm" -> PacketLength.SUNRM; case "cdr" -> PacketLength.CDR; case "fcgi" -> PacketLength.FCGI;
            case "tpkt" -> PacketLength.TPKT; case "http" -> PacketLength.HTTP; case "httph" -> PacketLength.HTTPH;
            case "http_bin" -> PacketLength.HTTP_BIN; case "httph_bin" -> PacketLength.HTTPH_BIN;
            case "ssl_tls" -> PacketLength.SSL_TLS;
            default -> throw ErlangException.badarg();
        };
    }

    static Term decode(org.jbeam.runtime.ErlProcess p, Term typ, Term bin, Term opts) {
        int type = type(typ);
        if (!(bin instanceof EBitString b)) throw ErlangException.badarg();
        long maxPlen = 0, truncLen = 0;
        int delimiter = '\n';
        Term o = opts;
        while (o instanceof ECons c) {
            // Values are unsigned 32-bit; line_delimiter is a byte and only for the line type.
            if (!(c.head instanceof ETuple tu) || tu.arity() != 2 || !(tu.get(0) instanceof EAtom k)
                    || !(tu.get(1) instanceof ESmall v) || v.value < 0 || v.value > 0xFFFFFFFFL) throw ErlangException.badarg();
            switch (k.name) {
                case "packet_size" -> maxPlen = v.value;
                case "line_length" -> truncLen = v.value;
                case "line_delimiter" -> {
                    if (type != PacketLength.LINE || v.value > 255) throw ErlangException.badarg();
                    delimiter = (int) v.value;
                }
                default -> throw ErlangException.badarg();
            }
            o = c.tail;
        }
        if (o != ENil.NIL) throw ErlangException.badarg();
        // Parsed in place: the bytes of a binary's range never change. Trailing bits stay in Rest, as in OTP.
        byte[] d = b.array();
        int off = b.arrayOffset();
        int[] httpState = {0};
        long plen = PacketLength.length(type, d, off, b.byteSize(), maxPlen, truncLen, delimiter, httpState);
        if (plen < 0) return ETuple.of(EAtom.ERROR, INVALID);
        if (plen == 0) return ETuple.of(MORE, EAtom.UNDEFINED);
        if (plen > b.byteSize()) return ETuple.of(MORE, ESmall.of(plen));
        int len = (int) plen;
        Term packet;
        if (PacketLength.isHttp(type)) {
            boolean binary = type == PacketLength.HTTP_BIN || type == PacketLength.HTTPH_BIN;
            packet = HttpPacket.parse(d, off, len, httpState, binary ? HttpPacket.SHARED_BINARIES : HttpPacket.LISTS);
        } else if (type == PacketLength.SSL_TLS) {
            packet = TlsPacket.parse(ENil.NIL, d, off, len);
        } else {
            packet = b.sub(PacketLength.bodyStart(type), PacketLength.bodyLength(type, d, off, len));
        }
        return ETuple.of(EAtom.OK, packet, new EBitString(b.array(), b.arrayOffset() + len, b.bitSize() - plen * 8));
    }
}
