package org.jbeam.packet;

import java.util.HashMap;
import java.util.Map;

import org.jbeam.term.*;

/**
 * One HTTP line as erts' packet_parse_http turns it into a term (packet types http, httph,
 * http_bin, httph_bin): {http_request, Method, Uri, {Maj, Min}}, {http_response, {Maj, Min}, Code,
 * Reason}, {http_header, Bit, Field, UnmodifiedField, Value}, http_eoh, or {http_error, Line} when
 * the line does not parse. Strings are lists for http/httph and binaries for the _bin types
 * (sub-binaries of decode_packet's argument, copies of the driver's buffer).
 * The behaviour is OTP 25's, quirks included (an HTTP/0.9 request line without a version is
 * {0,9}; text after the version digits is ignored; an absoluteURI host ends at the first ':', so
 * an IPv6 literal is not recognised).
 */
public final class HttpPacket {
    private HttpPacket() {}

    static final EAtom REQUEST = EAtom.of("http_request"), RESPONSE = EAtom.of("http_response"),
            HEADER = EAtom.of("http_header"), EOH = EAtom.of("http_eoh"), ERROR = EAtom.of("http_error"),
            ABS_PATH = EAtom.of("abs_path"), ABSOLUTE_URI = EAtom.of("absoluteURI"), SCHEME = EAtom.of("scheme"),
            HTTP = EAtom.of("http"), HTTPS = EAtom.of("https"), STAR = EAtom.of("*");

    /** http_meth_strings: request methods that are atoms. */
    private static final String[] METHODS = {"OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE"};

    /** http_hdr_strings: header names that are atoms; the Bit of the header tuple is the index + 1. */
    private static final String[] HEADERS = {
        "Cache-Control", "Connection", "Date", "Pragma", "Transfer-Encoding", "Upgrade", "Via", "Accept",
        "Accept-Charset", "Accept-Encoding", "Accept-Language", "Authorization", "From", "Host",
        "If-Modified-Since", "If-Match", "If-None-Match", "If-Range", "If-Unmodified-Since", "Max-Forwards",
        "Proxy-Authorization", "Range", "Referer", "User-Agent", "Age", "Location", "Proxy-Authenticate",
        "Public", "Retry-After", "Server", "Vary", "Warning", "Www-Authenticate", "Allow", "Content-Base",
        "Content-Encoding", "Content-Language", "Content-Length", "Content-Location", "Content-Md5",
        "Content-Range", "Content-Type", "Etag", "Expires", "Last-Modified", "Accept-Ranges", "Set-Cookie",
        "Set-Cookie2", "X-Forwarded-For", "Cookie", "Keep-Alive", "Proxy-Connection"};

    /** Header names longer than this keep their original spelling and are never atoms. */
    private static final int MAX_NAME_LEN = 50;

    private static final Map<String, EAtom> METHOD_ATOMS = new HashMap<>();
    private static final Map<String, Integer> HEADER_INDEX = new HashMap<>();
    private static final EAtom[] HEADER_ATOMS = new EAtom[HEADERS.length];
    static {
        for (String m : METHODS) METHOD_ATOMS.put(m, EAtom.of(m));
        for (int i = 0; i < HEADERS.length; i++) {
            HEADER_INDEX.put(HEADERS[i], i);
            HEADER_ATOMS[i] = EAtom.of(HEADERS[i]);
        }
    }

    /** tspecial: bytes that end a token (controls, space, separators, and everything outside 33..126). */
    private static boolean tspecial(int c) {
        if (c <= 32 || c >= 127) return true;
        return "()<>@,;:\\\"/[]?={} \t".indexOf(c) >= 0;
    }

    private static boolean sp(byte b) { return b == ' ' || b == '\t'; }

    private static boolean digit(byte b) { return b >= '0' && b <= '9'; }

    private static String latin1(byte[] d, int off, int len) { return new String(d, off, len, java.nio.charset.StandardCharsets.ISO_8859_1); }

    /** How strings are made: lists, binaries sharing the parsed bytes (an immutable binary's), or copied binaries. */
    public static final int LISTS = 0, SHARED_BINARIES = 1, BINARIES = 2;

    /** A string of the packet in the given form. */
    private static Term str(int form, byte[] d, int off, int len) {
        if (form == SHARED_BINARIES) return EBitString.of(d, off, len);
        if (form == BINARIES) return EBitString.of(java.util.Arrays.copyOfRange(d, off, off + len));
        Term l = ENil.NIL;
        for (int i = off + len - 1; i >= off; i--) l = new ECons(ESmall.of(d[i] & 0xFF), l);
        return l;
    }

    /**
     * Parses the line d[off, off+len) (its line end included) in state[0] (0: request or status
     * line, else header lines) and updates the state as erts does: a start line moves to headers,
     * the empty line (http_eoh) back to start lines.
     */
    public static Term parse(byte[] d, int off, int len, int[] state, int form) {
        Term t = parseLine(d, off, len, state, form);
        return t != null ? t : ETuple.of(ERROR, str(form, d, off, len));
    }

    private static Term parseLine(byte[] d, int off, int len, int[] state, int form) {
        int n = len;
        // The trailing CRLF (or a bare LF) is not part of the line.
        if (n >= 2 && d[off + n - 2] == '\r') n -= 2;
        else if (n >= 1 && d[off + n - 1] == '\n') n -= 1;
        int end = off + n;
        if (state[0] != 0) return header(d, off, end, state, form);
        if (n >= 5 && d[off] == 'H' && d[off + 1] == 'T' && d[off + 2] == 'T' && d[off + 3] == 'P' && d[off + 4] == '/')
            return statusLine(d, off + 5, end, state, form);
        return requestLine(d, off, end, state, form);
    }

    /** HTTP/Maj.Min SP* Code SP* Reason; the reason may be empty. */
    private static Term statusLine(byte[] d, int p, int end, int[] state, int form) {
        int major = 0, minor = 0, status = 0, p0 = p;
        while (p < end && digit(d[p])) major = 10 * major + (d[p++] - '0');
        if (p == p0 || p == end || d[p] != '.') return null;
        p0 = ++p;
        while (p < end && digit(d[p])) minor = 10 * minor + (d[p++] - '0');
        if (p == p0) return null;
        p0 = p;
        while (p < end && sp(d[p])) p++;
        if (p == p0) return null;
        while (p < end && digit(d[p])) status = 10 * status + (d[p++] - '0');
        p0 = p;
        while (p < end && sp(d[p])) p++;
        if (p == p0 && p < end) return null;
        state[0] = 1;
        return ETuple.of(RESPONSE, ETuple.of(ESmall.of(major), ESmall.of(minor)), ESmall.of(status), str(form, d, p, end - p));
    }

    /** Method SP+ Uri [SP+ HTTP/Maj.Min]; without a version the request is HTTP/0.9. */
    private static Term requestLine(byte[] d, int off, int end, int[] state, int form) {
        int p = off;
        while (p < end && !tspecial(d[p] & 0xFF)) p++;
        int methLen = p - off;
        if (p == end || methLen == 0 || !sp(d[p])) return null;
        EAtom known = METHOD_ATOMS.get(latin1(d, off, methLen));
        while (p < end && sp(d[p])) p++;
        int uri = p;
        while (p < end && !sp(d[p])) p++;
        int uriLen = p - uri;
        if (uriLen == 0) return null;
        while (p < end && sp(d[p])) p++;
        int major = 0, minor = 9;
        if (p < end) {
            if (end - p < 8) return null;
            if (d[p] != 'H' || d[p + 1] != 'T' || d[p + 2] != 'T' || d[p + 3] != 'P' || d[p + 4] != '/') return null;
            p += 5;
            int p0 = p;
            while (p < end && digit(d[p])) major = 10 * major + (d[p++] - '0');
            if (p == p0 || p == end || d[p] != '.') return null;
            p0 = ++p;
            minor = 0;
            while (p < end && digit(d[p])) minor = 10 * minor + (d[p++] - '0');
            if (p == p0) return null;
        }
        state[0] = 1;
        Term meth = known != null ? known : str(form, d, off, methLen);
        return ETuple.of(REQUEST, meth, uri(d, uri, uriLen, form), ETuple.of(ESmall.of(major), ESmall.of(minor)));
    }

    /** http_parse_uri: '*', {abs_path, P}, {absoluteURI, http|https, Host, Port, Path}, {scheme, S, Rest} or the raw string. */
    private static Term uri(byte[] d, int p, int len, int form) {
        if (len == 1 && d[p] == '*') return STAR;
        if (len <= 1 || d[p] == '/') return ETuple.of(ABS_PATH, str(form, d, p, len));
        if (len >= 7 && latin1(d, p, 7).equalsIgnoreCase("http://")) return absoluteUri(HTTP, d, p + 7, len - 7, form);
        if (len >= 8 && latin1(d, p, 8).equalsIgnoreCase("https://")) return absoluteUri(HTTPS, d, p + 8, len - 8, form);
        int colon = indexOf(d, p, p + len, ':');
        if (colon < 0) return str(form, d, p, len);
        return ETuple.of(SCHEME, str(form, d, p, colon - p), str(form, d, colon + 1, p + len - colon - 1));
    }

    private static int indexOf(byte[] d, int from, int end, int b) {
        for (int i = from; i < end; i++) if (d[i] == b) return i;
        return -1;
    }

    /** host[:port][/path]: the path defaults to "/"; a port that is not all digits, or 0, is undefined. */
    private static Term absoluteUri(EAtom scheme, byte[] d, int p, int len, int form) {
        int slash = indexOf(d, p, p + len, '/');
        Term path;
        if (slash < 0) path = str(form == LISTS ? LISTS : BINARIES, new byte[] {'/'}, 0, 1);
        else {
            path = str(form, d, slash, p + len - slash);
            len = slash - p;
        }
        int colon = indexOf(d, p, p + len, ':');
        Term host;
        int port = 0;
        if (colon < 0) host = str(form, d, p, len);
        else {
            host = str(form, d, p, colon - p);
            int q = colon + 1, end = p + len;
            while (q < end && digit(d[q])) port = port * 10 + (d[q++] - '0');
            if (q != end) port = 0;
        }
        return ETuple.of(ABSOLUTE_URI, scheme, host, port == 0 ? EAtom.UNDEFINED : ESmall.of(port), path);
    }

    /**
     * Name: Value. The name is canonicalised (first letter and each letter after '-' upper case, the
     * rest lower case) and looked up among the known headers; the original spelling is the fourth
     * element. Spaces after the colon are skipped; the value runs to the end, continuation lines included.
     */
    private static Term header(byte[] d, int off, int end, int[] state, int form) {
        if (end == off) {
            state[0] = 0;
            return EOH;
        }
        int p = off, nameLen = 0;
        byte[] canon = new byte[MAX_NAME_LEN];
        boolean up = true;
        while (!tspecial(d[p] & 0xFF)) {
            if (nameLen < MAX_NAME_LEN) {
                int c = d[p];
                if (up) {
                    if (c >= 'a' && c <= 'z') c -= 32;
                    up = false;
                } else if (c >= 'A' && c <= 'Z') c += 32;
                else if (c == '-') up = true;
                canon[nameLen] = (byte) c;
            }
            nameLen++;
            p++;
            if (p == end) return null;
        }
        if (d[p] != ':') return null;
        Term bit, field;
        Integer ix = nameLen <= MAX_NAME_LEN ? HEADER_INDEX.get(latin1(canon, 0, nameLen)) : null;
        if (ix != null) {
            bit = ESmall.of(ix + 1);
            field = HEADER_ATOMS[ix];
        } else {
            bit = ESmall.of(0);
            field = nameLen <= MAX_NAME_LEN ? str(form == LISTS ? LISTS : BINARIES, canon, 0, nameLen) : str(form, d, off, nameLen);
        }
        p++;
        while (p < end && sp(d[p])) p++;
        return ETuple.of(HEADER, bit, field, str(form, d, off, nameLen), str(form, d, p, end - p));
    }
}
