package org.jbeam.interp;

import org.jbeam.bif.IoLists;

/** UTF-8/16 segment decoding for bit syntax matching; -1 (position unchanged) when invalid. */
final class Utf {
    private Utf() {}

    static int readUtf8(MatchState ms) {
        long save = ms.pos;
        if (ms.remaining() < 8) return -1;
        int b0 = (int) ms.readBits(8);
        int need, cp;
        if (b0 < 0x80) return b0;
        else if ((b0 & 0xE0) == 0xC0) { need = 1; cp = b0 & 0x1F; }
        else if ((b0 & 0xF0) == 0xE0) { need = 2; cp = b0 & 0x0F; }
        else if ((b0 & 0xF8) == 0xF0) { need = 3; cp = b0 & 0x07; }
        else { ms.pos = save; return -1; }
        if (ms.remaining() < need * 8L) { ms.pos = save; return -1; }
        for (int i = 0; i < need; i++) {
            int b = (int) ms.readBits(8);
            if ((b & 0xC0) != 0x80) { ms.pos = save; return -1; }
            cp = (cp << 6) | (b & 0x3F);
        }
        int min = need == 1 ? 0x80 : need == 2 ? 0x800 : 0x10000;
        if (cp < min || !IoLists.validCodePoint(cp)) { ms.pos = save; return -1; }
        return cp;
    }

    static int readUtf16(MatchState ms, boolean little) {
        long save = ms.pos;
        if (ms.remaining() < 16) return -1;
        int w1 = unit(ms, little);
        if (w1 < 0xD800 || w1 > 0xDFFF) return w1;
        if (w1 > 0xDBFF || ms.remaining() < 16) { ms.pos = save; return -1; }
        int w2 = unit(ms, little);
        if (w2 < 0xDC00 || w2 > 0xDFFF) { ms.pos = save; return -1; }
        return 0x10000 + ((w1 - 0xD800) << 10) + (w2 - 0xDC00);
    }

    private static int unit(MatchState ms, boolean little) {
        int a = (int) ms.readBits(8), b = (int) ms.readBits(8);
        return little ? (b << 8) | a : (a << 8) | b;
    }
}
