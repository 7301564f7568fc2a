package org.jbeam.term;

/**
 * Bob Jenkins' lookup2 hash as erts uses it (utils.c: MIX and block_hash): shared by
 * erlang:phash2 (org.jbeam.etf.Phash2) and the map-key hash that orders large maps (MapHash).
 */
public final class JenkinsHash {
    private JenkinsHash() {}

    public static final int HCONST = 0x9e3779b9;

    /** Mix of (a, b, c); returns the new c. */
    public static int mix(int a, int b, int c) {
        a -= b; a -= c; a ^= (c >>> 13);
        b -= c; b -= a; b ^= (a << 8);
        c -= a; c -= b; c ^= (b >>> 13);
        a -= b; a -= c; a ^= (c >>> 12);
        b -= c; b -= a; b ^= (a << 16);
        c -= a; c -= b; c ^= (b >>> 5);
        a -= b; a -= c; a ^= (c >>> 3);
        b -= c; b -= a; b ^= (a << 10);
        c -= a; c -= b; c ^= (b >>> 15);
        return c;
    }

    /** erts' block_hash over {@code len} bytes. */
    @SuppressWarnings("fallthrough")
    public static int blockHash(byte[] k, int off, int length, int initval) {
        int a = HCONST, b = HCONST, c = initval;
        int len = length, p = off;
        while (len >= 12) {
            a += le32(k, p); b += le32(k, p + 4); c += le32(k, p + 8);
            a -= b; a -= c; a ^= (c >>> 13);
            b -= c; b -= a; b ^= (a << 8);
            c -= a; c -= b; c ^= (b >>> 13);
            a -= b; a -= c; a ^= (c >>> 12);
            b -= c; b -= a; b ^= (a << 16);
            c -= a; c -= b; c ^= (b >>> 5);
            a -= b; a -= c; a ^= (c >>> 3);
            b -= c; b -= a; b ^= (a << 10);
            c -= a; c -= b; c ^= (b >>> 15);
            p += 12; len -= 12;
        }
        c += length;
        switch (len) {
            case 11: c += (k[p + 10] & 0xFF) << 24;
            case 10: c += (k[p + 9] & 0xFF) << 16;
            case 9: c += (k[p + 8] & 0xFF) << 8;
            case 8: b += (k[p + 7] & 0xFF) << 24;
            case 7: b += (k[p + 6] & 0xFF) << 16;
            case 6: b += (k[p + 5] & 0xFF) << 8;
            case 5: b += k[p + 4] & 0xFF;
            case 4: a += (k[p + 3] & 0xFF) << 24;
            case 3: a += (k[p + 2] & 0xFF) << 16;
            case 2: a += (k[p + 1] & 0xFF) << 8;
            case 1: a += k[p] & 0xFF;
            default:
        }
        return mix(a, b, c);
    }

    private static int le32(byte[] k, int p) {
        return (k[p] & 0xFF) | ((k[p + 1] & 0xFF) << 8) | ((k[p + 2] & 0xFF) << 16) | ((k[p + 3] & 0xFF) << 24);
    }
}
