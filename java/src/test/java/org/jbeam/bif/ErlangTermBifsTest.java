package org.jbeam.bif;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/** ErlangTermBifs/ErlangConvBifs: differential cases against erl plus large-input checks. */
class ErlangTermBifsTest {
    @Test void differentialAgainstErl() throws Exception {
        int n = BifDiff.run("erlang.txt");
        System.out.println("ErlangTermBifs: " + n + " differential cases");
    }

    @Test void subtractLongListsIsHashed() {
        int n = 200_000;
        Term[] a = new Term[n], b = new Term[n / 2];
        for (int i = 0; i < n; i++) a[i] = ESmall.of(i);
        for (int i = 0; i < n / 2; i++) b[i] = ESmall.of(2 * i);
        long t0 = System.nanoTime();
        Term r = BifDiff.call("erlang", "--", new Term[] {ECons.of(a), ECons.of(b)});
        assertTrue(System.nanoTime() - t0 < 2_000_000_000L);
        Term[] got = ECons.toArray(r);
        assertEquals(n / 2, got.length);
        assertEquals(ESmall.of(1), got[0]);
        assertEquals(ESmall.of(n - 1), got[got.length - 1]);
    }

    @Test void appendAndLengthOnLongLists() {
        Term[] a = new Term[1_000_000];
        java.util.Arrays.fill(a, EAtom.OK);
        Term l = ECons.of(a);
        assertEquals(ESmall.of(1_000_000), BifDiff.call("erlang", "length", new Term[] {l}));
        Term r = BifDiff.call("erlang", "++", new Term[] {l, l});
        assertEquals(ESmall.of(2_000_000), BifDiff.call("erlang", "length", new Term[] {r}));
        assertEquals(ESmall.of(1_000_000), BifDiff.call("erlang", "iolist_size", new Term[] {ECons.of(java.util.Collections.nCopies(1_000_000, ESmall.of(7)))}));
    }

    @Test void guardFlags() {
        assertTrue(BifDiff.TABLE.lookup("erlang", "element", 2).guard());
        assertTrue(BifDiff.TABLE.lookup("erlang", "binary_part", 3).guard());
        assertTrue(BifDiff.TABLE.lookup("erlang", "is_record", 3).guard());
        assertFalse(BifDiff.TABLE.lookup("erlang", "min", 2).guard());
        assertFalse(BifDiff.TABLE.lookup("erlang", "setelement", 3).guard());
        assertFalse(BifDiff.TABLE.lookup("erlang", "++", 2).guard());
    }
}
