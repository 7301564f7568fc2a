package org.jbeam.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.EAtom;
import org.jbeam.term.EPid;
import org.jbeam.term.ERef;
import org.junit.jupiter.api.Test;

/**
 * Receive markers (recv_marker_bind/use/clear): a fixed array of slots whose oldest binding is
 * recycled when all are taken (a call that timed out leaves its marker bound: ADR 0047). ADR 0043
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
        p.bindMarker(r2, b); // a second slot
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

    @Test
    void aFullArrayRecyclesTheOldestBinding() {
        ErlProcess p = new ErlProcess(null, new EPid(EAtom.NONODE, 901, 0, 0));
        int n = ErlProcess.MARKERS;
        ERef[] stale = new ERef[n];
        Object[] pos = new Object[n];
        for (int i = 0; i < n; i++) { stale[i] = ref(100, i); pos[i] = new Object(); p.bindMarker(stale[i], pos[i]); }
        for (int i = 0; i < n; i++) assertSame(pos[i], p.marker(stale[i]), "all " + n + " slots kept");
        // Calls after n timed-out ones: each binds, uses and clears its own marker.
        for (int call = 0; call < 3 * n; call++) {
            ERef r = ref(200, call);
            Object at = new Object();
            p.bindMarker(r, at);
            assertSame(at, p.marker(r), "call " + call + " finds its own marker");
            p.clearMarker(r);
            assertNull(p.marker(r));
        }
        // The first of those calls recycled the oldest stale binding; the cleared slot served the rest.
        assertNull(p.marker(stale[0]), "the oldest binding was recycled");
        for (int i = 1; i < n; i++) assertSame(pos[i], p.marker(stale[i]), "younger bindings stay");
        // Rebinding refreshes a binding's age: stale[1] is then younger than stale[2].
        p.bindMarker(stale[1], pos[1]);
        p.bindMarker(ref(300), new Object()); // the free slot
        p.bindMarker(ref(301), new Object()); // full: recycles stale[2], the oldest now
        assertNull(p.marker(stale[2]));
        assertSame(pos[1], p.marker(stale[1]));
        assertSame(pos[3], p.marker(ref(100, 3)), "an equal reference decoded from elsewhere finds it");
    }
}
