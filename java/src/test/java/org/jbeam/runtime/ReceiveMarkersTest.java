package org.jbeam.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.ERef;
import org.junit.jupiter.api.Test;

/**
 * Receive markers (recv_marker_bind/use/clear): one slot for the usual single outstanding
 * gen_server:call, a map for more (a call that timed out leaves its marker bound). ADR 0043
 * changed how keys are compared (no virtual equals) and pre-trains these methods.
 */
class ReceiveMarkersTest {
    private static ERef ref(int... ids) { return new ERef(EAtom.NONODE, 0, ids); }

    @Test
    void slotAndMapKeepEveryBoundMarker() {
        ErlProcess p = new ErlProcess(null, new EPid(EAtom.NONODE, 900, 0, 0));
        Object a = new Object(), b = new Object(), c = new Object();
        ERef r1 = ref(1, 2, 3), r2 = ref(4, 5, 6), r3 = ref(7, 8, 9);
        assertNull(p.marker(r1));
        p.bindMarker(r1, a);
        p.bindMarker(r2, b); // slot taken: the map
        p.bindMarker(r3, c);
        assertSame(a, p.marker(r1));
        assertSame(b, p.marker(r2));
        assertSame(c, p.marker(ref(7, 8, 9)), "an equal reference decoded from elsewhere finds it");
        p.clearMarker(ref(1, 2, 3));
        assertNull(p.marker(r1));
        assertSame(b, p.marker(r2));
        p.bindMarker(r1, c); // the slot again
        assertSame(c, p.marker(r1));
        p.bindMarker(r1, a); // rebinding the slot's own reference replaces it
        assertSame(a, p.marker(r1));
        p.clearMarker(r2);
        p.clearMarker(r3);
        p.clearMarker(ref(42)); // unknown: nothing happens
        assertNull(p.marker(r2));
        assertNull(p.marker(r3));
        assertSame(a, p.marker(r1));
        assertNull(p.marker(EAtom.NONODE), "not a reference: never bound");
    }
}
