package org.jbeam.io;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** CompletionRing.open(): -Djbeam.io forces a backend; auto picks io_uring exactly when it is usable. */
class BackendSelectionTest {

    private static String openWith(String mode) {
        String old = System.getProperty("jbeam.io");
        try {
            if (mode == null) System.clearProperty("jbeam.io"); else System.setProperty("jbeam.io", mode);
            try (CompletionRing ring = CompletionRing.open(16)) { return ring.backendName(); }
        } finally {
            if (old == null) System.clearProperty("jbeam.io"); else System.setProperty("jbeam.io", old);
        }
    }

    @Test
    void selection() {
        String why = IoUringRing.unavailableReason();
        System.out.println("io_uring here: " + (why == null ? "available" : "unavailable (" + why + ")"));
        assertEquals("threads", openWith("threads"));
        assertEquals(why == null ? "io_uring" : "threads", openWith(null));
        assertEquals(why == null ? "io_uring" : "threads", openWith("auto"));
        if (why == null) assertEquals("io_uring", openWith("uring"));
        else assertThrows(IllegalStateException.class, () -> openWith("uring"));
        assertThrows(IllegalArgumentException.class, () -> openWith("bogus"));
    }
}
