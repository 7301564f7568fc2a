package org.jbeam.bif;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/** BinaryBifs: differential cases against erl, plus compiled patterns and sub-binary sizes. */
class BinaryBifsTest {
    @Test void differential() throws Exception {
        System.out.println("BinaryBifs: " + BifDiff.run("binary.txt") + " differential cases");
    }

    private static Term t(String s) { return TermReader.parse(s); }

    @Test void compiledPatternsMatchLikeRawOnes() {
        String[] subjects = {"<<\"abcabcab\">>", "<<\"xyz\">>", "<<\"aaaa\">>"};
        String[] pats = {"<<\"ab\">>", "[<<\"a\">>, <<\"ca\">>, <<\"bc\">>]", "[<<\"aa\">>]"};
        for (String s : subjects) for (String p : pats) {
            Term cp = BifDiff.call("binary", "compile_pattern", new Term[] {t(p)});
            for (String f : new String[] {"match", "matches", "split"}) {
                assertEquals(BifDiff.call("binary", f, new Term[] {t(s), t(p)}), BifDiff.call("binary", f, new Term[] {t(s), cp}), f + " " + s + " " + p);
            }
        }
    }

    @Test void referencedByteSizeOfSubBinary() {
        Term big = EBitString.of(new byte[100]);
        Term part = BifDiff.call("binary", "part", new Term[] {big, ESmall.of(10), ESmall.of(5)});
        assertEquals(ESmall.of(100), BifDiff.call("binary", "referenced_byte_size", new Term[] {part}));
        Term copy = BifDiff.call("binary", "copy", new Term[] {part});
        assertEquals(ESmall.of(5), BifDiff.call("binary", "referenced_byte_size", new Term[] {copy}));
    }
}
