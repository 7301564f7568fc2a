package org.jbeam.re;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.bif.Bif;
import org.jbeam.bif.BifTable;
import org.jbeam.bif.ReBifs;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/**
 * Differential test of the re BIFs against the real OTP 25: one escript run (re_diff.escript)
 * evaluates every case of re_cases.terms on erl and prints the case (as ETF hex) and the result
 * (~w, MP binaries normalised to 'mp'); each case is then evaluated through the ReBifs entries of
 * a BifTable and printed with TermPrinter, and the two strings must be equal.
 */
class ReBifsDiffTest {
    private static final EAtom MP = EAtom.of("mp"), ERROR_RAISED = EAtom.of("error_raised"),
            COMPILE_FAILED = EAtom.of("compile_failed");

    private final BifTable table = new BifTable();
    { new ReBifs().register(table); }

    @Test
    void matchesOtp() throws Exception {
        Path dir = Path.of("java/src/test/resources/re");
        Process p = new ProcessBuilder("escript", dir.resolve("re_diff.escript").toString(),
                dir.resolve("re_cases.terms").toString()).redirectErrorStream(false).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.ISO_8859_1))) {
            for (String l; (l = r.readLine()) != null; ) lines.add(l);
        }
        assertEquals(0, p.waitFor(), "escript failed: " + new String(p.getErrorStream().readAllBytes()));
        long expectedCases = Files.readAllLines(dir.resolve("re_cases.terms")).stream()
                .filter(l -> l.startsWith("{")).count();
        assertEquals(expectedCases, lines.size(), "one erl result per case");
        List<String> failures = new ArrayList<>();
        for (String line : lines) {
            int tab = line.indexOf('\t');
            ETuple c = (ETuple) Etf.decode(Etf.hex(line.substring(0, tab)));
            String want = line.substring(tab + 1);
            String got = TermPrinter.print(norm(eval(c)));
            if (!want.equals(got)) failures.add(c + "\n   erl:   " + want + "\n   jbeam: " + got);
        }
        System.out.println("re differential: " + lines.size() + " cases, " + failures.size() + " mismatches");
        assertTrue(failures.isEmpty(), failures.size() + " mismatches:\n" + String.join("\n", failures));
    }

    private Term call(String f, Term... args) {
        BifTable.Entry e = table.lookup("re", f, args.length);
        assertNotNull(e, "re:" + f + "/" + args.length);
        try {
            return Bif.invoke(e.fn(), null, args);
        } catch (ErlangException ex) {
            return ETuple.of(ERROR_RAISED, ex.reason);
        }
    }

    private Term eval(ETuple c) {
        String f = ((EAtom) c.get(0)).name;
        Term[] a = ECons.toArray(c.get(1));
        switch (f) {
            case "run_mp", "irun_mp", "inspect_mp" -> {
                Term comp = call("compile", f.equals("inspect_mp") ? a[0] : a[1], f.equals("inspect_mp") ? a[1] : a[2]);
                if (!(comp instanceof ETuple t && t.get(0) == EAtom.OK)) return ETuple.of(COMPILE_FAILED, comp);
                Term mp = ((ETuple) comp).get(1);
                if (f.equals("inspect_mp")) return call("inspect", mp, EAtom.of("namelist"));
                if (f.equals("irun_mp")) return call("internal_run", a[0], mp, a[3], a[4]);
                return call("run", a[0], mp, a[3]);
            }
            default -> { return call(f, a); }
        }
    }

    /** As re_diff.escript's norm/1: the MP's program binary differs by design. */
    static Term norm(Term t) {
        if (t instanceof ETuple tu) {
            if (tu.arity() == 5 && tu.get(0) == EAtom.of("re_pattern") && tu.get(4) instanceof EBitString)
                return ETuple.of(tu.get(0), tu.get(1), tu.get(2), tu.get(3), MP);
            Term[] el = tu.toArray();
            for (int i = 0; i < el.length; i++) el[i] = norm(el[i]);
            return ETuple.of(el);
        }
        if (t instanceof ECons c) return new ECons(norm(c.head), norm(c.tail));
        return t;
    }
}
