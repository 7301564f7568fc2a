package org.jbeam.bif;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/** ListsBifs and MapsBifs: differential cases against erl. */
class ListsMapsBifsTest {
    @Test void listsDifferential() throws Exception {
        System.out.println("ListsBifs: " + BifDiff.run("lists.txt") + " differential cases");
    }

    @Test void mapsDifferential() throws Exception {
        System.out.println("MapsBifs: " + BifDiff.run("maps.txt") + " differential cases");
    }

    @Test void reverseLongList() {
        Term[] a = new Term[500_000];
        for (int i = 0; i < a.length; i++) a[i] = ESmall.of(i);
        Term r = BifDiff.call("lists", "reverse", new Term[] {ECons.of(a), ENil.NIL});
        assertEquals(ESmall.of(a.length - 1), ((ECons) r).head);
    }

    @Test void mapNextOnLargeMapReturnsAllPairs() {
        Term[] ks = new Term[100], vs = new Term[100];
        for (int i = 0; i < 100; i++) { ks[i] = ESmall.of(i); vs[i] = ESmall.of(-i); }
        EMap m = EMap.of(ks, vs);
        Term l = BifDiff.call("erts_internal", "map_next", new Term[] {ESmall.ZERO, m, ENil.NIL});
        assertEquals(100, ECons.length(l));
    }
}
