package org.jbeam.bif;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Differential test driver: runs a case file (lines {@code Module Function [Args]}) through the
 * real {@code erl} in one escript run and through jbeam's BIF table, and compares each result
 * with exact equality ({@code =:=}). Errors compare as {@code {'EXIT', Class, Reason}}.
 */
final class BifDiff {
    private BifDiff() {}

    static final BifTable TABLE = new BifTable();
    static {
        new ErlangTermBifs().register(TABLE);
        new ListsBifs().register(TABLE);
        new MapsBifs().register(TABLE);
        new BinaryBifs().register(TABLE);
        new UnicodeBifs().register(TABLE);
    }

    /**
     * Java transcriptions of the few stdlib Erlang functions the cases call that are built on the
     * BIFs under test (maps:to_list/iterator/next from maps.erl), so the BIF protocol is exercised.
     */
    static final BifTable SHIMS = new BifTable();
    static {
        SHIMS.bif1("maps", "to_list", (p, m) -> {
            if (!(m instanceof EMap)) throw ErlangException.badmap(m);
            Term r = MapsBifs.mapNext(p, ESmall.ZERO, m, ENil.NIL);
            while (r instanceof ECons c && c.head instanceof EInteger && c.tail instanceof ECons c2) r = MapsBifs.mapNext(p, c.head, c2.head, c2.tail);
            return r;
        });
        SHIMS.bif1("maps", "iterator", (p, m) -> {
            if (!(m instanceof EMap)) throw ErlangException.badmap(m);
            return new ECons(ESmall.ZERO, m);
        });
        SHIMS.bif1("maps", "next", (p, it) -> {
            if (it instanceof ETuple t && t.arity() == 3) return t;
            if (it instanceof ECons c && c.head instanceof EInteger && c.tail instanceof EMap) return MapsBifs.mapNext(p, c.head, c.tail, EAtom.of("iterator"));
            if (it == EAtom.of("none")) return it;
            throw ErlangException.badarg();
        });
    }

    /** Calls {@code m:f(args)} in jbeam; an ErlangException becomes {@code {'EXIT', Class, Reason}}. */
    static Term call(String m, String f, Term[] args) {
        BifTable.Entry e = TABLE.lookup(m, f, args.length);
        if (e == null) e = SHIMS.lookup(m, f, args.length);
        if (e == null) throw new IllegalStateException("no BIF " + m + ":" + f + "/" + args.length);
        try {
            return Bif.invoke(e.fn(), null, args);
        } catch (ErlangException x) {
            return ETuple.of(EAtom.EXIT, x.cls, x.reason);
        }
    }

    /** Runs every case of the resource file; asserts all match and returns the number of cases. */
    static int run(String resource) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        String text;
        try (InputStream in = BifDiff.class.getResourceAsStream(resource)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String l : text.split("\n")) if (!l.isEmpty() && !l.startsWith("%")) lines.add(l);
        Path dir = Files.createTempDirectory("bifdiff");
        Path cases = dir.resolve("cases.txt"), script = dir.resolve("bifdiff.escript");
        Files.writeString(cases, text, StandardCharsets.UTF_8);
        try (InputStream in = BifDiff.class.getResourceAsStream("bifdiff.escript")) { Files.write(script, in.readAllBytes()); }
        Process p = new ProcessBuilder("escript", script.toString(), cases.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        p.waitFor();
        String[] expected = out.split("\n");
        assertTrue(expected.length >= lines.size(), "erl produced " + expected.length + " lines for " + lines.size() + " cases:\n" + out);
        StringBuilder fails = new StringBuilder();
        int failed = 0;
        for (int k = 0; k < lines.size(); k++) {
            String line = lines.get(k);
            String[] parts = line.split(" ", 3);
            String m = unquote(parts[0]), f = unquote(parts[1]);
            Term[] args = ECons.toArray(TermReader.parse(parts[2]));
            Term exp = TermReader.parse(expected[k]);
            Term got = call(m, f, args);
            if (!exp.equals(got)) {
                failed++;
                fails.append("\n  ").append(line).append("\n    erl:   ").append(expected[k]).append("\n    jbeam: ").append(got);
            }
        }
        assertTrue(failed == 0, failed + " of " + lines.size() + " cases differ:" + fails);
        return lines.size();
    }

    private static String unquote(String a) { return a.startsWith("'") ? a.substring(1, a.length() - 1) : a; }
}
