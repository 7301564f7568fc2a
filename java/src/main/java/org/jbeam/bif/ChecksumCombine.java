package org.jbeam.bif;

/**
 * zlib's adler32_combine and crc32_combine (erlang:adler32_combine/3, crc32_combine/3): the
 * checksum of A ++ B from the checksums of A and B and the length of B.
 */
final class ChecksumCombine {
    private ChecksumCombine() {}

    private static final long BASE = 65521;

    static long adler32(long adler1, long adler2, long len2) {
        if (len2 == 0) return adler1; // erts returns the first checksum for an empty second part
        long rem = len2 % BASE;
        long sum1 = adler1 & 0xFFFF;
        long sum2 = (rem * sum1) % BASE;
        sum1 += (adler2 & 0xFFFF) + BASE - 1;
        sum2 += ((adler1 >>> 16) & 0xFFFF) + ((adler2 >>> 16) & 0xFFFF) + BASE - rem;
        if (sum1 >= BASE) sum1 -= BASE;
        if (sum1 >= BASE) sum1 -= BASE;
        if (sum2 >= (BASE << 1)) sum2 -= (BASE << 1);
        if (sum2 >= BASE) sum2 -= BASE;
        return sum1 | (sum2 << 16);
    }

    private static long gf2Times(long[] mat, long vec) {
        long sum = 0;
        for (int i = 0; vec != 0; i++, vec >>>= 1) if ((vec & 1) != 0) sum ^= mat[i];
        return sum;
    }

    private static void gf2Square(long[] square, long[] mat) {
        for (int n = 0; n < 32; n++) square[n] = gf2Times(mat, mat[n]);
    }

    static long crc32(long crc1, long crc2, long len2) {
        if (len2 <= 0) return (crc1 ^ crc2) & 0xFFFFFFFFL;
        long[] even = new long[32], odd = new long[32];
        odd[0] = 0xEDB88320L;
        long row = 1;
        for (int n = 1; n < 32; n++) { odd[n] = row; row <<= 1; }
        gf2Square(even, odd);
        gf2Square(odd, even);
        do {
            gf2Square(even, odd);
            if ((len2 & 1) != 0) crc1 = gf2Times(even, crc1);
            len2 >>>= 1;
            if (len2 == 0) break;
            gf2Square(odd, even);
            if ((len2 & 1) != 0) crc1 = gf2Times(odd, crc1);
            len2 >>>= 1;
        } while (len2 != 0);
        return (crc1 ^ crc2) & 0xFFFFFFFFL;
    }
}
