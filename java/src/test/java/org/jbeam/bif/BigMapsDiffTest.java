package org.jbeam.bif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.etf.Phash2;
import org.jbeam.etf.TermEncoder;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/**
 * Large maps (OTP hashmaps, more than 32 keys) against the real erl: one escript run
 * (bigmaps.escript) builds maps of 33..2000 keys of many key types, by from_list, put/update/remove
 * sequences (growing past and shrinking below 32 keys) and merge, and prints the orders of
 * maps:keys/values/to_list, fold and iterator, term_to_binary, phash2 and comparisons. Each map
 * is rebuilt here with EMap/MapsBifs and every result must be =:= to erl's. Atom keys are left
 * out: OTP hashes them by atom-table index, which jbeam does not reproduce.
 */
class BigMapsDiffTest {
    private static final EAtom FROM_LIST = EAtom.of("from_list"), OPS = EAtom.of("ops"), MERGE = EAtom.of("merge"),
            SNAP = EAtom.of("snap"), PUT = EAtom.of("put"), UPDATE = EAtom.of("update"), ITERATOR = EAtom.of("iterator");

    @Test
    void bigMapsMatchErl() throws Exception {
        Path script = Files.createTempFile("bigmaps", ".escript");
        try (InputStream in = getClass().getResourceAsStream("bigmaps.escript")) { Files.write(script, in.readAllBytes()); }
        Process p = new ProcessBuilder("escript", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(0, p.waitFor(), out);
        Files.delete(script);
        List<String> fails = new ArrayList<>();
        int n = 0;
        for (String line : out.split("\n")) {
            if (line.isEmpty()) continue;
            String[] f = line.split("\t");
            assertEquals(3, f.length, line);
            Term expected = TermReader.parse(f[2]);
            Term got = result((ETuple) TermReader.parse(f[1]));
            n++;
            if (!expected.equals(got)) fails.add(f[0] + "\n    erl:   " + cut(f[2]) + "\n    jbeam: " + cut(got.toString()));
        }
        assertTrue(n >= 30, "too few cases:\n" + out);
        assertTrue(fails.isEmpty(), fails.size() + " of " + n + " cases differ:\n  " + String.join("\n  ", fails));
    }

    private static String cut(String s) { return s.length() > 600 ? s.substring(0, 600) + "..." : s; }

    private static Term result(ETuple in) {
        Term kind = in.get(0);
        if (kind == FROM_LIST) return observe(fromList(in.get(1)));
        if (kind == MERGE) return observe((EMap) MapsBifs.merge(null, fromList(in.get(1)), fromList(in.get(2))));
        if (kind == OPS) {
            EMap m = EMap.EMPTY;
            List<Term> snaps = new ArrayList<>();
            for (Term op : ECons.toArray(in.get(1))) {
                if (op == SNAP) snaps.add(ETuple.of(ESmall.of(m.size()), MapsBifs.keys(m), MapsBifs.values(m)));
                else if (op instanceof ETuple t && t.get(0) == PUT) m = m.put(t.get(1), t.get(2));
                else if (op instanceof ETuple t && t.get(0) == UPDATE) m = m.update(t.get(1), t.get(2));
                else m = m.remove(((ETuple) op).get(1));
            }
            return ECons.of(snaps.toArray(new Term[0]));
        }
        EMap a = fromList(in.get(1)), b = fromList(in.get(2));
        return ETuple.of(EAtom.of(TermOrder.compare(a, b) < 0), EAtom.of(TermOrder.eq(a, b)), EAtom.of(a.equals(b)),
                EAtom.of(TermOrder.compare(b, a) < 0));
    }

    private static EMap fromList(Term pairs) { return (EMap) MapsBifs.fromList(null, pairs); }

    /** The same tuple as observe/1 in bigmaps.escript. */
    private static Term observe(EMap m) {
        // maps:to_list/1: map_next with a list accumulator until it returns a plain list.
        Term r = MapsBifs.mapNext(null, ESmall.ZERO, m, ENil.NIL);
        while (r instanceof ECons c && c.head instanceof EInteger && c.tail instanceof ECons c2) r = MapsBifs.mapNext(null, c.head, c2.head, c2.tail);
        Term toList = r;
        // maps:fold/3 and maps:next/1 both walk the iterator chain.
        List<Term> iter = new ArrayList<>();
        Term it = MapsBifs.mapNext(null, ESmall.ZERO, m, ITERATOR);
        while (it instanceof ETuple t && t.arity() == 3) {
            iter.add(t.get(0));
            it = t.get(2);
            if (it instanceof ECons c) it = MapsBifs.mapNext(null, c.head, c.tail, ITERATOR);
        }
        Term iterList = ECons.of(iter.toArray(new Term[0]));
        boolean lookups = true;
        Term[] ks = ECons.toArray(MapsBifs.keys(m)), vs = ECons.toArray(MapsBifs.values(m));
        for (int i = 0; i < ks.length; i++) lookups &= vs[i].equals(m.get(ks[i]));
        return ETuple.of(ESmall.of(m.size()), MapsBifs.keys(m), MapsBifs.values(m), toList, iterList, iterList,
                EBitString.of(TermEncoder.encode(m)), ESmall.of(Phash2.phash2(m)), EAtom.of(lookups));
    }
}
