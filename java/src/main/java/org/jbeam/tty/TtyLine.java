package org.jbeam.tty;

import java.io.ByteArrayOutputStream;

/**
 * The "smart line" of erts' tty_sl driver: the characters of the line the cursor is on, so that
 * user_drv's editing commands (put, move, insert, delete; edlin decides what they are) become
 * cursor movements across wrapped rows. Same rules as ttsl_drv.c: printable characters take one
 * cell, a tab pads to the next multiple of 8, other control characters show as ^X (two cells),
 * and outside UTF-8 mode characters above 255 as \ooo or \x{H}; a newline starts a new line.
 * Cursor movement uses the ANSI sequences xterm and the Linux console share (termcap's
 * up/nd, backspace for left, line feed for down), with the xn (eat newline) glitch handled.
 */
final class TtyLine {
    private static final int CONTROL_TAG = 0x10000000, ESCAPED_TAG = 0x01000000, TAG_MASK = 0xFF000000;
    private static final byte[] UP = {0x1B, '[', 'A'}, RIGHT = {0x1B, '[', 'C'};

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean utf8;
    int cols = 80;
    private int[] lbuf = new int[1024];
    private int llen, lpos;

    private static boolean isprint(int c) { return c >= 0x20 && c < 0x7F; }

    private void ensure(int extra) {
        if (lpos + extra + 10 >= lbuf.length) lbuf = java.util.Arrays.copyOf(lbuf, lpos + extra + 1024);
    }

    /** OP_PUTC: write over the line from the cursor. */
    void putChars(byte[] s, int off, int n) {
        ensure(maxCells(n));
        int written = insertBuf(s, off, n);
        if (written > 0) writeBuf(lpos - written, written);
        if (lpos > llen) llen = lpos;
    }

    /** OP_MOVE: n logical characters forwards or backwards. */
    void moveRel(int n) {
        int npos = stepOver(n);
        moveCursor(lpos, npos);
        lpos = npos;
    }

    /** OP_INSC: insert at the cursor, redrawing the tail. */
    void insChars(byte[] s, int off, int n) {
        ensure(maxCells(n) + llen);
        int tl = llen - lpos;
        int[] tail = tl > 0 ? java.util.Arrays.copyOfRange(lbuf, lpos, llen) : null;
        int written = insertBuf(s, off, n);
        if (tl > 0) System.arraycopy(tail, 0, lbuf, lpos, tl);
        llen += written;
        writeBuf(lpos - written, llen - (lpos - written));
        moveCursor(llen, lpos);
    }

    /** OP_DELC: delete n logical characters after (n > 0) or before (n < 0) the cursor. */
    void delChars(int n) {
        int pos = stepOver(n);
        if (pos > lpos) {
            int l = pos - lpos, r = llen - lpos - l;
            if (r > 0) System.arraycopy(lbuf, pos, lbuf, lpos, r);
            llen -= l;
            blankTail(l, r);
        } else if (pos < lpos) {
            int l = lpos - pos, r = llen - lpos;
            moveCursor(lpos, lpos - l);
            if (r > 0) System.arraycopy(lbuf, lpos, lbuf, pos, r);
            lpos -= l;
            llen -= l;
            blankTail(l, r);
        }
    }

    private void blankTail(int l, int r) {
        writeBuf(lpos, r);
        for (int i = 0; i < l; i++) out.write(' ');
        if (col(llen + l) == 0) { out.write(' '); moveLeft(1); }
        moveCursor(llen + l, lpos);
    }

    void beep() { out.write(7); }

    private int col(int l) { return l % cols; }

    private int stepOver(int n) {
        int c = lpos;
        for (; n > 0 && c < llen; n--) {
            c++;
            while (c < llen && (lbuf[c] & TAG_MASK) != 0 && (lbuf[c] & ~TAG_MASK) == 0) c++;
        }
        for (; n < 0 && c > 0; n++) {
            c--;
            while (c > 0 && (lbuf[c] & TAG_MASK) != 0 && (lbuf[c] & ~TAG_MASK) == 0) c--;
        }
        return c;
    }

    /** Upper bound of the cells {@code n} bytes of input take (a tab is at most 8), for growing the buffer first. */
    private static int maxCells(int n) { return 8 * n + 16; }

    /** Decodes one UTF-8 character at {@code p[0]}, advancing it; an invalid byte stands for itself. */
    private static int pick(byte[] s, int end, int[] p) {
        int b = s[p[0]] & 0xFF;
        int need = b < 0x80 ? 0 : (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2 : (b & 0xF8) == 0xF0 ? 3 : -1;
        if (need <= 0 || p[0] + need >= end) {
            p[0]++;
            return b;
        }
        int c = b & (0x3F >> need);
        for (int i = 1; i <= need; i++) {
            int x = s[p[0] + i] & 0xFF;
            if ((x & 0xC0) != 0x80) { p[0]++; return b; }
            c = c << 6 | (x & 0x3F);
        }
        p[0] += need + 1;
        return c;
    }

    /** Puts the characters of {@code s} into the buffer at lpos; returns the cells written on the current line. */
    private int insertBuf(byte[] s, int off, int n) {
        int[] p = {off};
        int end = off + n, start = lpos;
        while (p[0] < end) {
            int ch = pick(s, end, p);
            if ((utf8 && (ch >= 128 || isprint(ch))) || (ch <= 255 && isprint(ch))) {
                lbuf[lpos++] = ch;
            } else if (ch >= 128) {
                int nc = escapedWidth(ch);
                lbuf[lpos++] = ch | ESCAPED_TAG;
                while (nc-- > 0) lbuf[lpos++] = ESCAPED_TAG;
            } else if (ch == '\t') {
                do { lbuf[lpos++] = CONTROL_TAG | ch; ch = 0; } while (lpos % 8 != 0);
            } else if (ch == 0x1B || ch == '\n' || ch == '\r') {
                writeBuf(start, lpos - start);
                if (ch == 0x1B) out.write(0x1B);
                else { out.write('\r'); if (ch == '\n') out.write('\n'); }
                if (llen > lpos) System.arraycopy(lbuf, lpos, lbuf, 0, llen - lpos);
                llen -= lpos;
                if (llen < 0) llen = 0;
                lpos = start = 0;
            } else {
                lbuf[lpos++] = ch | CONTROL_TAG;
                lbuf[lpos++] = CONTROL_TAG;
            }
            ensure(16);
        }
        return lpos - start;
    }

    private static int escapedWidth(int c) {
        int x = 0;
        for (int ch = c; ch != 0; ch >>>= 3) x++;
        if (c == 0) return 1;
        if (x <= 3) return 3;
        x = 0;
        for (int ch = c; ch != 0; ch >>>= 4) x++;
        return x + 3;
    }

    private void writeBuf(int from, int n) {
        int s = from;
        int last = ' ';
        byte[] lastUtf8 = null;
        while (n > 0) {
            int v = lbuf[s];
            if ((v & TAG_MASK) == 0) {
                if (utf8) {
                    lastUtf8 = new String(Character.toChars(v)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    out.writeBytes(lastUtf8);
                    last = 0;
                } else {
                    out.write(v);
                    last = v;
                }
                n--; s++;
            } else if (v == (CONTROL_TAG | '\t')) {
                out.write(last = ' ');
                n--; s++;
                while (n > 0 && lbuf[s] == CONTROL_TAG) { out.write(last = ' '); n--; s++; }
            } else if ((v & CONTROL_TAG) != 0) {
                int c = v & ~TAG_MASK;
                out.write('^');
                out.write(last = (c == 0177 ? '?' : c | 0x40));
                n -= 2; s += 2;
            } else if ((v & ESCAPED_TAG) != 0) {
                int c = v & ~TAG_MASK;
                String esc = escapedWidth(c) == 3 ? String.format("%03o", c) : "x{" + Integer.toHexString(c).toUpperCase() + "}";
                out.write('\\');
                for (int i = 0; i < esc.length(); i++) out.write(last = esc.charAt(i));
                n -= esc.length() + 1; s += esc.length() + 1;
            } else {
                n--; s++;
            }
        }
        // Landed in the first column of a new row: terminals with the xn glitch wait for the next
        // character before wrapping, so write one and step back.
        if (col(s) == 0 && s != 0) {
            if (s >= llen) out.write(' ');
            else if (last == 0 && lastUtf8 != null) out.writeBytes(lastUtf8);
            else out.write(last);
            moveLeft(1);
        }
    }

    private void moveCursor(int from, int to) {
        int dc = col(to) - col(from), dl = to / cols - from / cols;
        for (int i = 0; i < dl; i++) out.write('\n');
        for (int i = 0; i < -dl; i++) out.writeBytes(UP);
        for (int i = 0; i < dc; i++) out.writeBytes(RIGHT);
        moveLeft(-dc);
    }

    private void moveLeft(int n) { for (int i = 0; i < n; i++) out.write('\b'); }
}
