package org.jbeam.nif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.jbeam.term.EBitString;
import org.jbeam.term.ENil;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;
import org.junit.jupiter.api.Test;

/**
 * Which NIF libraries get critical downcalls reading large binaries in place (ADR 0006): decided
 * from their ELF imports, so the decision itself is tested on real files. Results through that
 * path are compared with erl by the jbeam_heap_nif and nif_libs differential programs.
 */
class NifHeapCallsTest {
    @Test void importsOfRealLibraries() throws Exception {
        Set<String> test = NifImports.undefined(NifTestLibs.testNif());
        assertTrue(test.contains("enif_send") && test.contains("enif_make_badarg"), test.toString());
        Set<String> crypto = NifImports.undefined(NifTestLibs.otpNif("crypto", "crypto"));
        assertTrue(crypto.contains("enif_inspect_binary"), crypto.toString());
        assertFalse(NifImports.noUpcalls(NifTestLibs.testNif()));   // imports enif_send & co.
        assertTrue(NifImports.noUpcalls(NifTestLibs.otpNif("crypto", "crypto")));
        assertTrue(NifImports.noUpcalls(NifTestLibs.nativeDir().resolve("libjbeam_heap_nif.so")));
        assertFalse(NifImports.noUpcalls(NifTestLibs.nativeDir().resolve("no_such_library.so")));
    }

    @Test void largeBinariesReadInPlaceGiveTheSameResults() {
        NifLibrary lib = NifLibrary.load(NifTestLibs.nativeDir().resolve("libjbeam_heap_nif.so"), "jbeam_heap_nif", ENil.NIL);
        assertTrue(lib.heapCalls);
        byte[] data = new byte[100_000];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 7);
        EBitString whole = EBitString.of(data);
        Term small = EBitString.of(new byte[] {1, 2, 3});
        NifFunction sum = lib.function("sum", 2), stepped = lib.function("stepped", 2), slice = lib.function("slice", 3);
        // the same bytes as a large binary (in place) and as small pieces (copied) hash alike
        ETuple big = (ETuple) sum.call(null, whole, small);
        assertEquals(small, big.get(1));
        assertEquals(big.get(0), ((ETuple) stepped.call(null, whole, ESmall.of(0))).get(0));
        ETuple sl = (ETuple) slice.call(null, whole, ESmall.of(5), ESmall.of(4000));
        assertEquals(sl.get(0), sl.get(1));
        assertEquals(4000, ((EBitString) sl.get(0)).byteSize());
    }
}
