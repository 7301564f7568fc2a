package org.jbeam.re;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.jbeam.term.*;

/** Test helper: decodes the external term format (term_to_binary output) for the types the re tests use. */
final class Etf {
    private Etf() {}

    static Term decode(byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data);
        if ((b.get() & 0xFF) != 131) throw new IllegalArgumentException("not ETF");
        return term(b);
    }

    static byte[] hex(String s) {
        byte[] r = new byte[s.length() / 2];
        for (int i = 0; i < r.length; i++) r[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return r;
    }

    private static Term term(ByteBuffer b) {
        int tag = b.get() & 0xFF;
        switch (tag) {
            case 97: return ESmall.of(b.get() & 0xFF);
            case 98: return ESmall.of(b.getInt());
            case 110: case 111: {
                int n = tag == 110 ? b.get() & 0xFF : b.getInt();
                int sign = b.get();
                byte[] mag = new byte[n];
                for (int i = 0; i < n; i++) mag[n - 1 - i] = b.get();
                BigInteger v = new BigInteger(1, mag);
                return EInteger.of(sign == 0 ? v : v.negate());
            }
            case 70: return new EFloat(b.getDouble());
            case 100: case 118: { int n = b.getShort() & 0xFFFF; return atom(b, n, tag == 118); }
            case 115: case 119: { int n = b.get() & 0xFF; return atom(b, n, tag == 119); }
            case 104: case 105: {
                int n = tag == 104 ? b.get() & 0xFF : b.getInt();
                Term[] el = new Term[n];
                for (int i = 0; i < n; i++) el[i] = term(b);
                return ETuple.of(el);
            }
            case 106: return ENil.NIL;
            case 107: {
                int n = b.getShort() & 0xFFFF;
                Term[] el = new Term[n];
                for (int i = 0; i < n; i++) el[i] = ESmall.of(b.get() & 0xFF);
                return ECons.of(el);
            }
            case 108: {
                int n = b.getInt();
                Term[] el = new Term[n];
                for (int i = 0; i < n; i++) el[i] = term(b);
                Term tail = term(b);
                Term l = tail;
                for (int i = n - 1; i >= 0; i--) l = new ECons(el[i], l);
                return l;
            }
            case 109: {
                byte[] d = new byte[b.getInt()];
                b.get(d);
                return EBitString.of(d);
            }
            case 77: {
                int n = b.getInt();
                int bits = b.get() & 0xFF;
                byte[] d = new byte[n];
                b.get(d);
                return new EBitString(d, 0, (long) (n - 1) * 8 + bits);
            }
            default: throw new IllegalArgumentException("ETF tag " + tag + " at " + b.position() + " of " + Arrays.toString(b.array()));
        }
    }

    private static EAtom atom(ByteBuffer b, int n, boolean utf8) {
        byte[] d = new byte[n];
        b.get(d);
        return EAtom.of(new String(d, utf8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1));
    }
}
