package org.jbeam.bif;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * erlang:decode_packet/3 (erl_bif_port.c + packet_parser.c): splits one packet off a binary for
 * the packet types raw/0, 1, 2, 4, line, asn1, sunrm, cdr, fcgi and tpkt. The HTTP types
 * (http, httph, http_bin, httph_bin) are not implemented: they raise error:undefined, as the
 * Erlang stub would.
 */
final class DecodePacket {
    private DecodePacket() {}

    enum Type { RAW, P1, P2, P4, LINE, ASN1, SUNRM, CDR, FCGI, TPKT, HTTP }

    private static final EAtom MORE = EAtom.of("more"), INVALID = EAtom.of("invalid");

    static void register(BifTable t) {
        t.bif3("erlang", "decode_packet", DecodePacket::decode);
    }

    private static Type type(Term t) {
        if (t instanceof ESmall s) {
            return switch ((int) Math.max(-1, Math.min(s.value, 5))) {
                case 0 -> Type.RAW; case 1 -> Type.P1; case 2 -> Type.P2; case 4 -> Type.P4;
                default -> throw ErlangException.badarg();
            };
        }
        if (!(t instanceof EAtom a)) throw ErlangException.badarg();
        return switch (a.name) {
            case "raw" -> Type.RAW; case "line" -> Type.LINE; case "asn1" -> Type.ASN1; case "sunrm" -> Type.SUNRM;
            case "cdr" -> Type.CDR; case "fcgi" -> Type.FCGI; case "tpkt" -> Type.TPKT;
            case "http", "httph", "http_bin", "httph_bin" -> Type.HTTP;
            default -> throw ErlangException.badarg();
        };
    }

    static Term decode(org.jbeam.runtime.ErlProcess p, Term typ, Term bin, Term opts) {
        Type type = type(typ);
        if (!(bin instanceof EBitString b)) throw ErlangException.badarg();
        long maxPlen = 0, truncLen = 0;
        int delimiter = '\n';
        Term o = opts;
        while (o instanceof ECons c) {
            if (!(c.head instanceof ETuple tu) || tu.arity() != 2 || !(tu.get(0) instanceof EAtom k)
                    || !(tu.get(1) instanceof ESmall v) || v.value < 0) throw ErlangException.badarg();
            switch (k.name) {
                case "packet_size" -> maxPlen = Math.min(v.value, 0xFFFFFFFFL);
                case "line_length" -> truncLen = Math.min(v.value, 0xFFFFFFFFL);
                case "line_delimiter" -> { if (v.value > 255) throw ErlangException.badarg(); delimiter = (int) v.value; }
                default -> throw ErlangException.badarg();
            }
            o = c.tail;
        }
        if (o != ENil.NIL) throw ErlangException.badarg();
        if (type == Type.HTTP) throw ErlangException.error(EAtom.UNDEFINED);
        byte[] d = b.sub(0, b.byteSize()).toByteArray(); // trailing bits stay in Rest, as in OTP
        long plen = length(type, d, maxPlen, truncLen, delimiter);
        if (plen < 0) return ETuple.of(EAtom.ERROR, INVALID);
        if (plen == 0) return ETuple.of(MORE, EAtom.UNDEFINED);
        if (plen > d.length) return ETuple.of(MORE, ESmall.of(plen));
        int start = 0, len = (int) plen;
        switch (type) {
            case P1 -> { start = 1; len -= 1; }
            case P2 -> { start = 2; len -= 2; }
            case P4 -> { start = 4; len -= 4; }
            case FCGI -> len -= d[6] & 0xFF;
            default -> {}
        }
        return ETuple.of(EAtom.OK, b.sub(start, len), new EBitString(b.array(), b.arrayOffset() + (int) plen, b.bitSize() - plen * 8));
    }

    private static long u(byte[] d, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) v = (v << 8) | (d[off + i] & 0xFF);
        return v;
    }

    /** packet_get_length: total packet length, 0 when more data is needed (unknown amount), -1 on error. */
    static long length(Type type, byte[] d, long maxPlen, long truncLen, int delimiter) {
        int n = d.length;
        long hlen, plen;
        switch (type) {
            case RAW -> { return n; }
            case P1, P2, P4, SUNRM -> {
                hlen = switch (type) { case P1 -> 1; case P2 -> 2; default -> 4; };
                if (n < hlen) return 0;
                plen = u(d, 0, (int) hlen);
                if (type == Type.SUNRM) plen &= 0x7FFFFFFFL;
            }
            case LINE -> {
                int i = 0;
                while (i < n && (d[i] & 0xFF) != delimiter) i++;
                if (i == n) {
                    if (maxPlen != 0 && n > maxPlen) return -1;
                    if (truncLen != 0 && n >= truncLen) return truncLen;
                    return 0;
                }
                long len = i + 1;
                if (maxPlen != 0 && len > maxPlen) return -1;
                if (truncLen != 0 && len > truncLen) return truncLen;
                return len;
            }
            case ASN1 -> {
                if (n < 2) return 0;
                int nn = n - 1, tp = 0;
                if ((d[tp++] & 0x1f) == 0x1f) {
                    while (nn > 0 && (d[tp] & 0x80) == 0x80) { tp++; nn--; }
                    if (nn < 2) return 0;
                    tp++; nn--;
                }
                int length = d[tp] & 0x7f;
                if ((d[tp] & 0x80) == 0x80) {
                    tp++; nn--;
                    if (nn < length) return 0;
                    if (length > 4) return -1;
                    plen = u(d, tp, length);
                    tp += length;
                } else {
                    tp++;
                    plen = length;
                }
                hlen = tp;
            }
            case CDR -> {
                hlen = 12;
                if (n < hlen) return 0;
                if (d[0] != 'G' || d[1] != 'I' || d[2] != 'O' || d[3] != 'P') return -1;
                plen = (d[6] & 1) != 0 ? (u(d, 8, 1) | u(d, 9, 1) << 8 | u(d, 10, 1) << 16 | u(d, 11, 1) << 24) : u(d, 8, 4);
            }
            case FCGI -> {
                hlen = 8;
                if (n < hlen) return 0;
                if (d[0] != 1) return -1;
                plen = u(d, 4, 2) + (d[6] & 0xFF);
            }
            case TPKT -> {
                hlen = 4;
                if (n < hlen) return 0;
                if (d[0] != 3) return -1;
                plen = u(d, 2, 2) - hlen;
                if (plen < 0) return -1;
            }
            default -> throw new IllegalStateException();
        }
        if (maxPlen != 0 && plen > maxPlen) return -1;
        return hlen + plen;
    }
}
