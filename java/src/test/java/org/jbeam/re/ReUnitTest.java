package org.jbeam.re;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.jbeam.bindings.pcre2.Pcre2;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/** Unit tests of the PCRE2 bindings and of MP lifetime / thread safety (things erl cannot compare). */
class ReUnitTest {
    private static Term str(String s) { return ReIo.string(s); }
    private static Term opts(String... atoms) {
        Term[] a = new Term[atoms.length];
        for (int i = 0; i < a.length; i++) a[i] = EAtom.of(atoms[i]);
        return ECons.of(a);
    }

    @Test
    void bindingsMirrorHeaderVersion() {
        assertTrue(Pcre2.version().startsWith(Pcre2.MAJOR + "." + Pcre2.MINOR), Pcre2.version());
        assertEquals("missing closing parenthesis", Pcre2.errorMessage(114));
        assertEquals(EBitString.ofLatin1(Pcre2.version()), ReRun.version());
    }

    @Test
    void latin1TablesKeepPcre2Layout() {
        // ASCII half must equal what pcre2_maketables() gives in the C locale: validates the layout constants.
        MemorySegment t = Pcre2.pcre2_maketables(MemorySegment.NULL).reinterpret(Pcre2.TABLES_LENGTH);
        byte[] mine = ReTables.build();
        for (int c = 0; c < 128; c++) {
            assertEquals(t.get(ValueLayout.JAVA_BYTE, Pcre2.LCC_OFFSET + c), mine[Pcre2.LCC_OFFSET + c], "lcc " + c);
            assertEquals(t.get(ValueLayout.JAVA_BYTE, Pcre2.FCC_OFFSET + c), mine[Pcre2.FCC_OFFSET + c], "fcc " + c);
            assertEquals(t.get(ValueLayout.JAVA_BYTE, Pcre2.CTYPES_OFFSET + c), mine[Pcre2.CTYPES_OFFSET + c], "ctypes " + c);
        }
        for (int cls = 0; cls < Pcre2.CBIT_LENGTH; cls += 32)
            for (int k = 0; k < 16; k++)
                assertEquals(t.get(ValueLayout.JAVA_BYTE, Pcre2.CBITS_OFFSET + cls + k), mine[Pcre2.CBITS_OFFSET + cls + k], "cbits " + cls + "/" + k);
    }

    @Test
    void nametableScanBinding() {
        ReCode c = ReCode.compile("(?<n>a)|(?<n>b)|(?<m>c)".getBytes(), Pcre2.DUPNAMES, 0, 0).code();
        assertNotNull(c);
        assertEquals(3, c.names.size());
        try (Arena a = Arena.ofConfined()) {
            MemorySegment first = a.allocate(ValueLayout.ADDRESS), last = a.allocate(ValueLayout.ADDRESS);
            int esize = Pcre2.pcre2_substring_nametable_scan(c.code, a.allocateFrom("n"), first, last);
            assertTrue(esize > 2);
            long span = last.get(ValueLayout.ADDRESS, 0).address() - first.get(ValueLayout.ADDRESS, 0).address();
            assertEquals(esize, span, "two entries for n");
            assertEquals(3, Pcre2.pcre2_substring_number_from_name(c.code, a.allocateFrom("m")));
            assertEquals(Pcre2.ERROR_NOSUBSTRING, Pcre2.pcre2_substring_number_from_name(c.code, a.allocateFrom("zz")));
        }
    }

    @Test
    void mpSurvivesCacheEvictionAndIsEqualAcrossCompiles() {
        Term mp1 = ((ETuple) ReRun.compile(str("(a)(b)"), ENil.NIL)).get(1);
        Term mp2 = ((ETuple) ReRun.compile(str("(a)(b)"), ENil.NIL)).get(1);
        assertEquals(mp1, mp2, "same pattern and options give equal MPs, as in OTP");
        Term before = ReRun.run(str("xab"), mp1, ENil.NIL, true);
        ReCode.clearCache();
        System.gc();
        assertEquals(before, ReRun.run(str("xab"), mp1, ENil.NIL, true));
        assertEquals("{match,[{1,2},{1,1},{2,1}]}", before.toString());
    }

    @Test
    void sameMpFromManyThreads() throws Exception {
        Term mp = ((ETuple) ReRun.compile(str("(\\d+)-(?<w>\\w+)"), opts("caseless"))).get(1);
        Term runOpts = ECons.of(EAtom.of("global"), ETuple.of(EAtom.of("capture"), EAtom.of("all"), EAtom.of("binary")));
        ExecutorService ex = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                final int id = t;
                fs.add(ex.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        String s = "x" + id + "-a " + i + "-b" + id + " ";
                        Term r = ReRun.run(EBitString.ofLatin1(s), mp, runOpts, true);
                        String want = "{match,[[" + bin(id + "-a") + "," + bin("" + id) + "," + bin("a") + "],["
                                + bin(i + "-b" + id) + "," + bin("" + i) + "," + bin("b" + id) + "]]}";
                        if (!want.equals(r.toString())) throw new AssertionError(want + " != " + r);
                        if (i % 50 == 0) ReCode.clearCache();
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : fs) assertTrue(f.get());
        } finally {
            ex.shutdown();
        }
    }

    private static String bin(String s) {
        StringBuilder sb = new StringBuilder("<<");
        for (int i = 0; i < s.length(); i++) { if (i > 0) sb.append(','); sb.append((int) s.charAt(i)); }
        return sb.append(">>").toString();
    }

    @Test
    void globalOnLargeSubjectIsLinear() {
        byte[] big = new byte[1 << 20];
        for (int i = 0; i < big.length; i++) big[i] = (byte) (i % 10 == 9 ? ',' : 'a');
        long t0 = System.nanoTime();
        Term r = ReRun.run(EBitString.of(big), str(","), opts("global"), true);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(big.length / 10, ECons.length(((ETuple) r).get(1)));
        assertTrue(ms < 5000, "global run took " + ms + " ms");
    }
}
