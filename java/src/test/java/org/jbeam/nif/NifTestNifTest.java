package org.jbeam.nif;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.jbeam.ErlOracle;
import org.jbeam.term.*;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Loads native/test_nif.c's library in jbeam and in the real erl (through a stub module
 * jbeam_test_nif compiled on the fly) and compares every deterministic function's result.
 */
class NifTestNifTest {
    static NifLibrary lib;

    @BeforeAll static void load() { lib = NifLibrary.load(NifTestLibs.testNif(), "jbeam_test_nif", ESmall.of(42)); }

    static Term call(String f, Term... args) { return lib.function(f, args.length).call(null, args); }

    static EBitString bin(int... b) { byte[] a = new byte[b.length]; for (int i = 0; i < b.length; i++) a[i] = (byte) b[i]; return EBitString.of(a); }
    static Term big(String s) { return EInteger.of(new java.math.BigInteger(s)); }
    static Term str(String s) { return EBitString.ofLatin1(s); }
    static EAtom a(String s) { return EAtom.of(s); }
    static ETuple t(Term... e) { return ETuple.of(e); }
    static Term l(Term... e) { return ECons.of(e); }
    static ESmall i(long v) { return ESmall.of(v); }

    /** The cases compared with erl: function name and arguments. */
    static List<Object[]> cases() {
        List<Object[]> c = new ArrayList<>();
        c.add(new Object[] {"priv"});
        c.add(new Object[] {"ints"});
        for (Term n : new Term[] {i(0), i(-1), i(2147483647), i(2147483648L), i(4294967295L), i(4294967296L), i(-2147483648L),
                i(-2147483649L), i((1L << 61) - 1), i(1L << 61), i(Long.MAX_VALUE), i(Long.MIN_VALUE), big("18446744073709551615"),
                big("18446744073709551616"), big("-9223372036854775809"), new EFloat(1.0), a("x")})
            c.add(new Object[] {"get_ints", n});
        c.add(new Object[] {"double_it", new EFloat(1.25)});
        c.add(new Object[] {"double_it", i(1)});
        c.add(new Object[] {"atom_info", a("hello_world")});
        c.add(new Object[] {"existing_atom", str("ok")});
        c.add(new Object[] {"existing_atom", str("surely_no_such_atom_xyzzy_42")});
        c.add(new Object[] {"make_atom", str("made_by_nif")});
        c.add(new Object[] {"tuple_info", t(i(1), a("b"), str("c"), t())});
        c.add(new Object[] {"tuple_info", t()});
        c.add(new Object[] {"list_info", l(i(1), i(2), i(3))});
        c.add(new Object[] {"list_info", ENil.NIL});
        c.add(new Object[] {"list_info", new ECons(i(1), i(2))});
        c.add(new Object[] {"strings", l(i(104), i(105))});
        c.add(new Object[] {"strings", l(i(104), i(105), i(106), i(107), i(108))});
        EMap m = EMap.of(new Term[] {a("a"), i(1), i(2), new EFloat(2.0), str("k")}, new Term[] {i(1), a("one"), a("int"), a("float"), t()});
        for (Term k : new Term[] {a("a"), i(1), i(2), new EFloat(2.0), new EFloat(1.0), str("k"), a("zz")}) c.add(new Object[] {"map_ops", m, k});
        c.add(new Object[] {"map_ops", EMap.EMPTY, a("k")});
        c.add(new Object[] {"map_from_arrays", l(a("b"), a("a"), i(3)), l(i(1), i(2), i(3))});
        c.add(new Object[] {"map_from_arrays", l(a("b"), a("b")), l(i(1), i(2))});
        c.add(new Object[] {"bin_ops", bin(1, 2, 3, 4, 5)});
        c.add(new Object[] {"bin_ops", bin(9, 8)});
        c.add(new Object[] {"bin_ops", bin(1)});
        c.add(new Object[] {"big_binary", i(10000)});
        c.add(new Object[] {"iolist_to_bin", l(i(1), bin(2, 3), l(l(i(4)), ENil.NIL, bin()), bin(5))});
        c.add(new Object[] {"iolist_to_bin", new ECons(i(1), bin(2))});
        c.add(new Object[] {"iolist_to_bin", bin(7, 7)});
        c.add(new Object[] {"iolist_to_bin", l(i(256))});
        c.add(new Object[] {"iolist_to_bin", a("x")});
        for (Term x : new Term[] {a("x"), i(1), big("100000000000000000000"), new EFloat(1.5), t(), ENil.NIL, l(i(1)), str("b"), m})
            c.add(new Object[] {"term_type", x});
        for (Term x : new Term[] {a("x"), i(1), new EFloat(1.5), t(), ENil.NIL, l(i(1)), str("b"), m, big("-100000000000000000000")})
            c.add(new Object[] {"is_tests", x});
        Term[] ord = {i(1), new EFloat(1.0), i(2), big("100000000000000000000"), big("-100000000000000000000"), new EFloat(-3.5),
                a("a"), a("b"), t(i(1)), t(i(1), i(2)), m, EMap.EMPTY, ENil.NIL, l(i(1)), l(i(1), i(2)), str("a"), str("ab")};
        for (Term x : ord) for (Term y : ord) c.add(new Object[] {"compare", x, y});
        c.add(new Object[] {"badarg"});
        c.add(new Object[] {"raise", t(a("my"), a("reason"))});
        c.add(new Object[] {"pending"});
        c.add(new Object[] {"format", t(a("x"), l(i(1), i(2)), EMap.of(new Term[] {a("a"), i(2)}, new Term[] {t(), i(-3)}), big("-100000000000000000000"))});
        c.add(new Object[] {"sysinfo"});
        c.add(new Object[] {"sched", i(1000)});
        c.add(new Object[] {"env_copy", t(m, l(i(1), str("x"), new EFloat(2.5)), big("123456789012345678901234567890"))});
        c.add(new Object[] {"threads"});
        c.add(new Object[] {"times"});
        c.add(new Object[] {"add", i(1), i(2)});
        c.add(new Object[] {"add", i(Long.MAX_VALUE), i(0)});
        Term deep = ENil.NIL;
        for (int k = 0; k < 2000; k++) deep = new ECons(i(k), deep);
        c.add(new Object[] {"echo", t(deep, i(-5), big("-98765432109876543210"), new EFloat(-0.5), m, str(""), a("Quoted Atom"))});
        return c;
    }

    @Test void matchesErl() throws IOException {
        Path dir = Files.createTempDirectory("jbeam-nif");
        List<Object[]> cases = cases();
        StringBuilder src = new StringBuilder("-module(jbeam_test_nif).\n-on_load(init/0).\n-export([");
        List<String> seen = new ArrayList<>();
        for (NifFunction f : lib.functions()) seen.add(f.name + "/" + f.arity);
        src.append(String.join(",", seen)).append("]).\n");
        String so = NifTestLibs.testNif().toAbsolutePath().toString();
        src.append("init() -> erlang:load_nif(\"").append(so, 0, so.length() - 3).append("\", 42).\n");
        for (NifFunction f : lib.functions()) {
            List<String> vs = new ArrayList<>();
            for (int k = 0; k < f.arity; k++) vs.add("_");
            src.append(f.name).append("(").append(String.join(",", vs)).append(") -> erlang:nif_error(not_loaded).\n");
        }
        Path erl = dir.resolve("jbeam_test_nif.erl");
        Files.writeString(erl, src);
        List<ErlOracle.Call> calls = new ArrayList<>();
        calls.add(new ErlOracle.Call("compile", "file", chars(erl.toString()), l(t(a("outdir"), chars(dir.toString())))));
        calls.add(new ErlOracle.Call("code", "add_patha", chars(dir.toString())));
        for (Object[] c : cases) calls.add(new ErlOracle.Call("jbeam_test_nif", (String) c[0], args(c)));
        List<String> expected = ErlOracle.run(calls);
        assertEquals("{ok,{ok,jbeam_test_nif}}", expected.get(0), "compiling the stub module");
        assertEquals("{ok,true}", expected.get(1));
        List<String> failures = new ArrayList<>();
        for (int k = 0; k < cases.size(); k++) {
            Object[] c = cases.get(k);
            Term[] args = args(c);
            String got = ErlOracle.canon(() -> call((String) c[0], args));
            String exp = expected.get(k + 2);
            if (!got.equals(exp)) failures.add(c[0] + abbreviate(java.util.Arrays.toString(args)) + "\n  erl:   " + abbreviate(exp) + "\n  jbeam: " + abbreviate(got));
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
    }

    static String abbreviate(String s) { return s.length() > 300 ? s.substring(0, 300) + "..." : s; }
    static Term chars(String s) { Term[] cs = new Term[s.length()]; for (int k = 0; k < cs.length; k++) cs[k] = i(s.charAt(k)); return ECons.of(cs); }
    static Term[] args(Object[] c) { Term[] a = new Term[c.length - 1]; for (int k = 1; k < c.length; k++) a[k - 1] = (Term) c[k]; return a; }
    @SuppressWarnings("unused") static Supplier<Term> sup(Term t) { return () -> t; }
}
