package org.jbeam.etf;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Robustness of binary_to_term: 100,000 random mutations (bit flips, byte overwrites, truncation,
 * length-field inflation, insertions/deletions) of valid encodings — plain, minor 0/2, compressed,
 * and legacy tags — must each either decode or raise badarg, never another exception, and the
 * whole run must finish quickly (forged lengths must not allocate or loop).
 */
class EtfFuzzTest {
    private final Random rnd = new Random(42);

    private Term gen(int depth) {
        int k = rnd.nextInt(depth <= 0 ? 8 : 13);
        return switch (k) {
            case 0 -> ESmall.of(rnd.nextInt(300) - 20);
            case 1 -> EInteger.of(new BigInteger(1 + rnd.nextInt(400), rnd).negate());
            case 2 -> new EFloat(rnd.nextGaussian() * 1e10);
            case 3 -> EAtom.of(new String[] {"a", "héllo", "日本", "ok"}[rnd.nextInt(4)]);
            case 4 -> { byte[] b = new byte[rnd.nextInt(80)]; rnd.nextBytes(b); yield rnd.nextBoolean() ? EBitString.of(b)
                    : new EBitString(b, 0, Math.max(0, b.length * 8L - rnd.nextInt(8))); }
            case 5 -> new EPid(EAtom.of(rnd.nextBoolean() ? "nonode@nohost" : "x@y"), rnd.nextInt(30000), rnd.nextInt(8000), 0);
            case 6 -> new ERef(EAtom.of("x@y"), 3, new int[] {rnd.nextInt(), rnd.nextInt(), rnd.nextInt()});
            case 7 -> new EPort(EAtom.of("x@y"), rnd.nextBoolean() ? rnd.nextInt(1000) : 1L << 40, 2);
            case 8, 9 -> { Term[] e = new Term[rnd.nextInt(5)]; for (int i = 0; i < e.length; i++) e[i] = gen(depth - 1); yield ETuple.of(e); }
            case 10 -> { Term[] e = new Term[1 + rnd.nextInt(4)]; for (int i = 0; i < e.length; i++) e[i] = gen(depth - 1);
                    Term l = ECons.of(e); yield rnd.nextInt(3) == 0 ? new ECons(gen(0), gen(0)) : l; }
            case 11 -> { int n = rnd.nextInt(4); Term[] ks = new Term[n], vs = new Term[n];
                    for (int i = 0; i < n; i++) { ks[i] = gen(depth - 1); vs[i] = gen(depth - 1); } yield EMap.of(ks, vs); }
            default -> rnd.nextBoolean() ? new EExportFun(EAtom.of("lists"), EAtom.of("map"), 2)
                    : new ELocalFun(EAtom.of("m"), EAtom.of("-f/0-fun-0-"), 1, 3, 12345678, new byte[16],
                        new Term[] {gen(depth - 1)}, new EPid(EAtom.NONODE, 80, 0, 0), null);
        };
    }

    private List<byte[]> seeds() {
        List<byte[]> s = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Term t = gen(3);
            s.add(TermEncoder.encode(t, i % 3, -1));
            if (i % 5 == 0) s.add(TermEncoder.encode(ECons.of(t, t, t, t), 1, 6));
        }
        int[][] legacy = {
            {131, 103, 115, 1, 'a', 0, 0, 0, 1, 0, 0, 0, 2, 3},           // PID_EXT, SMALL_ATOM_EXT node
            {131, 102, 100, 0, 1, 'a', 0, 0, 0, 1, 2},                     // PORT_EXT
            {131, 101, 100, 0, 1, 'a', 0, 0, 0, 1, 2},                     // REFERENCE_EXT
            {131, 114, 0, 2, 100, 0, 1, 'a', 1, 0, 0, 0, 1, 0, 0, 0, 2},   // NEW_REFERENCE_EXT
            {131, 99, '1', '.', '5', 'e', '+', '0', '0', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
        for (int[] l : legacy) { byte[] b = new byte[l.length]; for (int i = 0; i < l.length; i++) b[i] = (byte) l[i]; s.add(b); }
        return s;
    }

    @Test
    void seedsRoundTrip() {
        for (byte[] b : seeds()) {
            Term t = TermDecoder.decode(b, 0, b.length);
            assertEquals(t, TermDecoder.decode(TermEncoder.encode(t), 0, TermEncoder.encode(t).length));
        }
    }

    @Test
    void mutatedInputsOnlyEverGiveBadarg() {
        List<byte[]> seeds = seeds();
        int[] outcome = new int[2];
        assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
            for (int iter = 0; iter < 100_000; iter++) {
                byte[] b = mutate(seeds.get(rnd.nextInt(seeds.size())));
                try {
                    TermDecoder.Result r = TermDecoder.decode(b, 0, b.length, rnd.nextInt(4) == 0, FunResolver.DEFAULT);
                    assertTrue(r.used() >= 2 && r.used() <= b.length, "used");
                    TermEncoder.encode(r.term()); // whatever decodes must be encodable
                    outcome[0]++;
                } catch (ErlangException e) {
                    assertSame(EAtom.BADARG, e.reason, "only badarg");
                    outcome[1]++;
                } catch (Throwable t) {
                    fail("input " + Arrays.toString(b) + " threw " + t, t);
                }
            }
        });
        assertTrue(outcome[0] > 1000 && outcome[1] > 1000, "both outcomes exercised: " + Arrays.toString(outcome));
    }

    private byte[] mutate(byte[] src) {
        byte[] b = src.clone();
        int rounds = 1 + rnd.nextInt(3);
        for (int r = 0; r < rounds && b.length > 0; r++) {
            int p = rnd.nextInt(b.length);
            switch (rnd.nextInt(7)) {
                case 0 -> b[p] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> b[p] = (byte) rnd.nextInt(256);
                case 2 -> b = Arrays.copyOf(b, rnd.nextInt(b.length + 1));
                case 3 -> { // inflate a 4-byte length-like field
                    if (p + 4 <= b.length) { int v = rnd.nextBoolean() ? -1 : 0x7FFFFFF0 - rnd.nextInt(100);
                        for (int i = 0; i < 4; i++) b[p + i] = (byte) (v >>> (24 - 8 * i)); }
                }
                case 4 -> { if (p + 2 <= b.length) { b[p] = (byte) 0xFF; b[p + 1] = (byte) 0xFF; } }
                case 5 -> { byte[] n = new byte[b.length + 1]; System.arraycopy(b, 0, n, 0, p); n[p] = (byte) rnd.nextInt(256);
                    System.arraycopy(b, p, n, p + 1, b.length - p); b = n; }
                default -> { byte[] n = new byte[b.length - 1]; System.arraycopy(b, 0, n, 0, p);
                    System.arraycopy(b, p + 1, n, p, b.length - p - 1); b = n; }
            }
        }
        return b;
    }

    @Test
    void deepNestingNeedsNoJavaStack() {
        int depth = 1_000_000;
        byte[] b = new byte[1 + 2 * depth + 1];
        b[0] = (byte) 131;
        for (int i = 0; i < depth; i++) { b[1 + 2 * i] = 104; b[2 + 2 * i] = 1; }
        b[b.length - 1] = 106;
        Term t = TermDecoder.decode(b, 0, b.length);
        assertArrayEquals(b, TermEncoder.encode(t));
        assertEquals(Phash2.makeHash2(t), Phash2.makeHash2(TermDecoder.decode(b, 0, b.length)));
        Phash.makeHash(t);
    }

    @Test
    void hugeClaimsFailFast() {
        byte[][] cases = {
            {(byte) 131, 108, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 106},
            {(byte) 131, 105, (byte) 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
            {(byte) 131, 116, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
            {(byte) 131, 109, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1},
            {(byte) 131, 111, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0, 1},
            {(byte) 131, 80, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 120, (byte) 156, 3, 0},
            {(byte) 131, 82, 0}, {(byte) 131}, {}, {(byte) 130, 106}};
        for (byte[] c : cases) {
            ErlangException e = assertThrows(ErlangException.class, () -> TermDecoder.decode(c, 0, c.length));
            assertSame(EAtom.BADARG, e.reason);
        }
    }
}
