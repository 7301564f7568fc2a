package org.jbeam.etf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jbeam.term.*;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Differential test against the real erl: one erl run prints, for every corpus term, its
 * term_to_binary in minor versions 1 (default), 0 and 2, compressed at levels 6 and 1, phash2/1,
 * phash2/2 (2^32), phash/2 (2^32 and 1000) and external_size/1,2. Java decodes erl's bytes and must
 * re-encode them byte for byte and reproduce every hash and size.
 */
class EtfDifferentialTest {
    static final String DRIVER = """
        {ok, Ts0} = file:consult("%s"),
        MkFun = fun(Src, B) -> {ok, Tk, _} = erl_scan:string(Src), {ok, Es} = erl_parse:parse_exprs(Tk),
                               {value, V, _} = erl_eval:exprs(Es, B), V end,
        Extra = [self(), make_ref(), hd(erlang:ports()), fun lists:map/2, fun erlang:'++'/2, {self(), [make_ref()]},
                 MkFun("fun(X) -> X end.", []), MkFun("fun() -> Y end.", [{'Y', 42}]), list_to_pid("<0.1.2>"),
                 binary_to_term(<<131,88,119,3,"a@b",1:32,2:32,7:32>>),
                 binary_to_term(<<131,88,119,3,"a@b",16#FFFFFFFF:32,16#FFFFFFFF:32,16#FFFFFFFF:32>>),
                 binary_to_term(<<131,120,119,3,"a@b",(1 bsl 40):64,7:32>>),
                 binary_to_term(<<131,89,119,3,"a@b",5:32,7:32>>),
                 binary_to_term(<<131,90,0,5,119,3,"a@b",9:32,1:32,2:32,3:32,4:32,5:32>>),
                 binary_to_term(<<131,90,0,1,119,3,"a@b",9:32,16#FFFFFFFF:32>>),
                 binary_to_term(<<131,113,119,2,195,169,119,3,230,151,165,97,3>>)],
        Ts = Ts0 ++ Extra,
        H = fun(B) -> binary:encode_hex(B) end,
        lists:foreach(fun({I, T}) ->
            io:format("R ~b ~s ~s ~s ~s ~s ~b ~b ~b ~b ~b ~b~n",
              [I, H(term_to_binary(T)), H(term_to_binary(T, [{minor_version,0}])), H(term_to_binary(T, [{minor_version,2}])),
               H(term_to_binary(T, [compressed])), H(term_to_binary(T, [{compressed,1}])),
               erlang:phash2(T), erlang:phash2(T, 1 bsl 32), erlang:phash(T, 1 bsl 32), erlang:phash(T, 1000),
               erlang:external_size(T), erlang:external_size(T, [{minor_version,0}])])
          end, lists:zip(lists:seq(1, length(Ts)), Ts)),
        halt().
        """;

    @TestFactory
    Stream<DynamicTest> corpusMatchesErl() throws Exception {
        List<String> corpus = ErlCorpus.build(20250101L, 300);
        Path f = ErlRunner.writeConsultFile(corpus);
        List<String> lines = ErlRunner.run(String.format(DRIVER, f));
        assertTrue(lines.size() >= corpus.size(), "erl printed " + lines.size() + " results for " + corpus.size() + " terms");
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : lines) {
            String[] c = line.split(" ");
            int i = Integer.parseInt(c[0]);
            String label = "#" + i + " " + (i <= corpus.size() ? abbrev(corpus.get(i - 1)) : "runtime term");
            tests.add(DynamicTest.dynamicTest(label, () -> { try { check(c); } catch (AssertionError e) { throw new AssertionError(label + ": " + e.getMessage(), e); } }));
        }
        return tests.stream();
    }

    private static String abbrev(String s) { return s.length() > 60 ? s.substring(0, 60) + "..." : s; }

    static void check(String[] c) {
        byte[] t2b = ErlRunner.hex(c[1]);
        Term t = dec(t2b);
        boolean bigMap = hasLargeMap(t);
        byte[][] expected = {t2b, ErlRunner.hex(c[2]), ErlRunner.hex(c[3]), ErlRunner.hex(c[4]), ErlRunner.hex(c[5])};
        byte[][] actual = {TermEncoder.encode(t), TermEncoder.encode(t, 0, -1), TermEncoder.encode(t, 2, -1),
                TermEncoder.encode(t, 1, 6), TermEncoder.encode(t, 1, 1)};
        String[] what = {"term_to_binary", "minor_version 0", "minor_version 2", "compressed", "compressed 1"};
        for (int k = 0; k < expected.length; k++) {
            // every erl encoding decodes to the same term
            assertEquals(t, dec(expected[k]), what[k] + ": decode");
            if (bigMap) { // HAMT key order is not reproduced: check round trip only
                assertEquals(t, dec(actual[k]), what[k] + ": round trip");
                if (k < 3) assertEquals(expected[k].length, actual[k].length, what[k] + ": length");
            } else {
                assertEquals(ErlRunner.hex(expected[k]), ErlRunner.hex(actual[k]), what[k]);
            }
        }
        assertEquals(Long.parseLong(c[6]), Phash2.phash2(t), "phash2/1");
        assertEquals(Long.parseLong(c[7]), Phash2.phash2(t, 1L << 32), "phash2/2");
        assertEquals(Long.parseLong(c[8]), Phash.phash(t, 1L << 32), "phash/2 2^32");
        assertEquals(Long.parseLong(c[9]), Phash.phash(t, 1000), "phash/2 1000");
        assertEquals(Long.parseLong(c[10]), TermEncoder.externalSize(t, 1), "external_size/1");
        assertEquals(Long.parseLong(c[11]), TermEncoder.externalSize(t, 0), "external_size minor 0");
    }

    static Term dec(byte[] b) {
        try {
            return TermDecoder.decode(b, 0, b.length);
        } catch (org.jbeam.runtime.ErlangException e) {
            throw new AssertionError("decode failed: " + e.getMessage() + " on " + ErlRunner.hex(b));
        }
    }

    static boolean hasLargeMap(Term t) {
        return switch (t) {
            case EMap m -> {
                if (m.size() > 32) yield true;
                for (int i = 0; i < m.size(); i++) if (hasLargeMap(m.keyAt(i)) || hasLargeMap(m.valueAt(i))) yield true;
                yield false;
            }
            case ETuple tu -> { for (Term x : tu.elements()) if (hasLargeMap(x)) yield true; yield false; }
            case ECons cons -> {
                Term x = cons;
                while (x instanceof ECons cc) { if (hasLargeMap(cc.head)) yield true; x = cc.tail; }
                yield hasLargeMap(x);
            }
            case ELocalFun f -> { for (Term x : f.freeVars) if (hasLargeMap(x)) yield true; yield false; }
            default -> false;
        };
    }
}
