package org.jbeam.code;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/** select_val tables: the small linear form and the large form with its identity-hashed atoms. */
class SelectTableTest {
    @Test
    void largeTableFindsAtomsSmallsAndOthersAndMissesTheRest() {
        int n = 40;
        Term[] vals = new Term[n + 3];
        int[] tgts = new int[n + 3];
        for (int i = 0; i < n; i++) { vals[i] = EAtom.of("sel_tag_" + i); tgts[i] = 100 + i; }
        vals[n] = ESmall.of(7); tgts[n] = 7;
        vals[n + 1] = EAtom.of("sel_tag_3"); tgts[n + 1] = 999; // a duplicate: the first one wins, as in the HashMap form
        vals[n + 2] = ETuple.of(EAtom.OK, ESmall.of(1)); tgts[n + 2] = 55;
        SelectTable t = new SelectTable(vals, tgts);
        for (int i = 0; i < n; i++) assertEquals(100 + i, t.lookup(EAtom.of("sel_tag_" + i)));
        assertEquals(103, t.lookup(EAtom.of("sel_tag_3")));
        assertEquals(7, t.lookup(ESmall.of(7)));
        assertEquals(55, t.lookup(ETuple.of(EAtom.OK, ESmall.of(1))));
        assertEquals(-1, t.lookup(EAtom.of("sel_tag_missing")));
        assertEquals(-1, t.lookup(ESmall.of(8)));
        assertEquals(-1, t.lookup(EAtom.OK));
    }

    @Test
    void smallTableUsesExactMatch() {
        SelectTable t = new SelectTable(new Term[] {EAtom.OK, ESmall.of(1)}, new int[] {1, 2});
        assertEquals(1, t.lookup(EAtom.OK));
        assertEquals(2, t.lookup(ESmall.of(1)));
        assertEquals(-1, t.lookup(EAtom.ERROR));
        assertEquals(-1, t.lookup(ETuple.of(EAtom.OK)));
        assertEquals(-1, t.lookup(ENil.NIL));
        SelectTable withBig = new SelectTable(new Term[] {EAtom.OK, EInteger.of(java.math.BigInteger.ONE.shiftLeft(70))}, new int[] {1, 2});
        assertEquals(2, withBig.lookup(EInteger.of(java.math.BigInteger.ONE.shiftLeft(70))));
        assertEquals(-1, withBig.lookup(ETuple.of(EAtom.OK)));
    }
}
