package org.jbeam.inet;

/**
 * Packet framing of the inet driver (erts' packet_parser.c subset): {packet, raw|1|2|4|line}.
 * {@link #frame} finds the next complete packet in a receive buffer.
 */
final class Packet {
    private Packet() {}

    static final int RAW = 0, PB_1 = 1, PB_2 = 2, PB_4 = 3, LINE = 8;

    static boolean supported(int type) { return type == RAW || type == PB_1 || type == PB_2 || type == PB_4 || type == LINE; }

    static int headerSize(int type) {
        return switch (type) { case PB_1 -> 1; case PB_2 -> 2; case PB_4 -> 4; default -> 0; };
    }

    /**
     * Returns {start, end} of the next packet's payload in buf[0, len) and sets nothing else,
     * or null when more bytes are needed; total consumed bytes is end (payload ends the packet).
     * Returns {-1, -1} when the packet is larger than packetSize (emsgsize).
     */
    static int[] frame(byte[] buf, int len, int type, int packetSize, int want, int lineDelim) {
        switch (type) {
            case RAW -> {
                if (len == 0) return null;
                if (want > 0) return len >= want ? new int[] {0, want} : null;
                return new int[] {0, len};
            }
            case PB_1, PB_2, PB_4 -> {
                int h = headerSize(type);
                if (len < h) return null;
                long n = 0;
                for (int i = 0; i < h; i++) n = (n << 8) | (buf[i] & 0xFF);
                if (packetSize > 0 && n > packetSize) return new int[] {-1, -1};
                if (len < h + n) return null;
                return new int[] {h, (int) (h + n)};
            }
            case LINE -> {
                for (int i = 0; i < len; i++) {
                    if ((buf[i] & 0xFF) == lineDelim) return new int[] {0, i + 1};
                    if (packetSize > 0 && i + 1 >= packetSize) return new int[] {0, i + 1};
                }
                return null;
            }
            default -> { return len == 0 ? null : new int[] {0, len}; }
        }
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
}
