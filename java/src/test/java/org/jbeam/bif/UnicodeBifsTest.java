package org.jbeam.bif;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/** UnicodeBifs: differential cases against erl (all encodings, error/incomplete shapes). */
class UnicodeBifsTest {
    @Test void differential() throws Exception {
        System.out.println("UnicodeBifs: " + BifDiff.run("unicode.txt") + " differential cases");
    }

    @Test void longInputs() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100_000; i++) sb.appendCodePoint(0x20 + i % 0x3000);
        String s = sb.toString();
        Term bin = BifDiff.call("unicode", "characters_to_binary", new Term[] {IoLists.stringToCharlist(s), EAtom.UNICODE});
        assertEquals(EBitString.ofUtf8(s), bin);
        Term l = BifDiff.call("unicode", "characters_to_list", new Term[] {bin, EAtom.UTF8});
        assertEquals(IoLists.stringToCharlist(s), l);
        Term u16 = EBitString.of(s.getBytes(java.nio.charset.StandardCharsets.UTF_16BE));
        assertEquals(bin, BifDiff.call("unicode", "characters_to_binary", new Term[] {u16, EAtom.of("utf16")}));
    }
}
