package org.jbeam.nif;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What the erl comparison cannot cover: load failures and their OTP reasons, resource
 * destructors driven by Java's GC, enif_self/enif_send through a {@link NifHost}, atoms beyond
 * ASCII, deep terms, and a call-overhead figure.
 */
class NifRuntimeTest {
    static NifLibrary lib;

    @BeforeAll static void load() { lib = NifLibrary.load(NifTestLibs.testNif(), "jbeam_test_nif", ESmall.of(7)); }

    static Term call(String f, Term... args) { return lib.function(f, args.length).call(null, args); }

    static String charsOf(Term t) {
        StringBuilder sb = new StringBuilder();
        for (Term c : ECons.toArray(t)) sb.append((char) ((ESmall) c).value);
        return sb.toString();
    }

    @Test void loadErrorsHaveOtpReasons() {
        NifLoadException e = assertThrows(NifLoadException.class, () -> NifLibrary.load(Path.of("/tmp/nope"), "m", ENil.NIL));
        assertEquals("load_failed", e.kind.name);
        assertEquals("Failed to load NIF library: '/tmp/nope.so: cannot open shared object file: No such file or directory'", e.getMessage());
        assertEquals("{error,{load_failed,", e.errorTuple().toString().substring(0, 20));

        Path nat = NifTestLibs.nativeDir().resolve("libjbeam_native.so");
        e = assertThrows(NifLoadException.class, () -> NifLibrary.load(nat, "m", ENil.NIL));
        assertEquals("bad_lib", e.kind.name);
        assertEquals("Failed to find library init function: '" + nat + ": undefined symbol: _nif_init'", e.getMessage());

        e = assertThrows(NifLoadException.class, () -> NifLibrary.load(NifTestLibs.testNif(), "other", ENil.NIL));
        assertEquals("Library module name 'jbeam_test_nif' does not match calling module 'other'", e.getMessage());

        e = assertThrows(NifLoadException.class, () -> NifLibrary.load(NifTestLibs.testNif(), "jbeam_test_nif", EAtom.of("fail")));
        assertEquals("load", e.kind.name);
        assertEquals("Library load-call unsuccessful (7).", e.getMessage());
    }

    @Test void missingEnifSymbolFailsLoudly() {
        Path so = NifTestLibs.nativeDir().resolve("libjbeam_test_nif_missing.so");
        NifLoadException e = assertThrows(NifLoadException.class, () -> NifLibrary.load(so, "jbeam_test_nif_missing", ENil.NIL));
        assertEquals("load_failed", e.kind.name);
        assertTrue(e.getMessage().contains("undefined symbol: enif_set_option"), e.getMessage());
    }

    @Test void functionTableAndPriv() {
        assertEquals(ESmall.of(7), call("priv"));
        NifFunction sched = lib.function("sched", 1);
        assertTrue(sched.isDirty());
        assertNull(lib.function("echo", 2));
        long before = NifLibrary.dirtyJobs();
        assertEquals(ETuple.of(EAtom.of("done"), ESmall.of(55)), call("sched", ESmall.of(10)));
        assertEquals(5, NifLibrary.dirtyJobs() - before);   // odd countdown steps ask for a dirty scheduler
        assertThrows(ErlangException.class, () -> lib.function("echo", 1).call(null));
    }

    @Test void exceptions() {
        ErlangException e = assertThrows(ErlangException.class, () -> call("badarg"));
        assertEquals(EAtom.ERROR, e.cls);
        assertEquals(EAtom.BADARG, e.reason);
        e = assertThrows(ErlangException.class, () -> call("raise", ETuple.of(EAtom.OK)));
        assertEquals(ETuple.of(EAtom.OK), e.reason);
    }

    @Test void resourcesRunDestructorsWhenUnreachable() throws InterruptedException {
        // The count is the library's, shared with the other tests: let resources they dropped be
        // released first (the release thread works in batches after GC, ADR 0048), so every
        // destructor counted below is one of this test's.
        long base = ((ESmall) call("dtor_count")).value;
        for (int quiet = 0, k = 0; quiet < 3 && k < 100; k++) {
            System.gc();
            Thread.sleep(20);
            long now = ((ESmall) call("dtor_count")).value;
            quiet = now == base ? quiet + 1 : 0;
            base = now;
        }
        Term r = call("make_res", ESmall.of(41));
        assertTrue(r.isRef());
        assertTrue(NifResources.isResource((ERef) r));
        assertEquals(ESmall.of(41), call("get_res", r));
        assertEquals(r, call("echo", r));   // the same native object maps to the same ERef
        assertSame(r, call("echo", r));
        assertThrows(ErlangException.class, () -> call("get_res", ETuple.of()));
        // keep/release: the destructor runs exactly once, when the last reference goes
        ETuple kf = (ETuple) call("res_kept_free");
        assertEquals(base, ((ESmall) kf.get(0)).value);
        assertEquals(base + 1, ((ESmall) call("dtor_count")).value);
        // Java references: 20 resources, dropped; their destructors run after GC
        List<Term> many = new ArrayList<>();
        for (int k = 0; k < 20; k++) many.add(call("make_res", ESmall.of(k)));
        assertEquals(base + 1, ((ESmall) call("dtor_count")).value);
        many.clear();
        r = null;
        long want = base + 1 + 21;
        for (int k = 0; k < 100 && ((ESmall) call("dtor_count")).value < want; k++) { System.gc(); Thread.sleep(20); }
        assertEquals(want, ((ESmall) call("dtor_count")).value);
    }

    @Test void resourcesCopiedOutAreFoundByValue() {
        ERef r = (ERef) call("make_res", ESmall.of(77));
        int[] ids = r.ids();
        // an equal but distinct ERef stands for the resource only once the resource left by value
        // (term_to_binary, ref_to_list): resource terms made and dropped are in no id table (ADR 0048)
        assertFalse(NifResources.isResource(new ERef(r.node, r.creation, ids)));
        byte[] ext = org.jbeam.etf.TermEncoder.encode(r);
        ERef back = (ERef) org.jbeam.etf.TermDecoder.decode(ext, 0, ext.length);
        assertNotSame(r, back);
        assertEquals(r, back);
        assertTrue(NifResources.isResource(back));
        assertEquals(ESmall.of(77), call("get_res", back));
        assertSame(r, call("echo", back));   // crosses back as the live resource term itself
    }

    @Test void selfAndSend() {
        EPid pid = new EPid(EAtom.NONODE, 4711, 0, 0);
        ErlProcess proc = new ErlProcess(null, pid);
        List<Term> got = new ArrayList<>();
        NifLibrary.setHost(new NifHost() {
            @Override public boolean send(EPid to, Term msg) { synchronized (got) { got.add(ETuple.of(to, msg)); } return true; }
            @Override public ERef makeRef() { return NifHost.NONE.makeRef(); }
        });
        try {
            assertEquals(EAtom.UNDEFINED, call("self"));
            assertSame(pid, lib.function("self", 0).call(proc));
            Term payload = ETuple.of(ECons.of(ESmall.of(1)), EBitString.ofLatin1("x"), pid);
            assertEquals(EAtom.OK, lib.function("send_self", 1).call(proc, payload));
            assertEquals(List.of(ETuple.of(pid, ETuple.of(EAtom.of("hello"), payload))), got);
            assertEquals(EAtom.of("no_self"), call("send_self", EAtom.OK));
        } finally {
            NifLibrary.setHost(null);
        }
    }

    @Test void latin1AtomsAndDeepTerms() {
        ETuple info = (ETuple) call("atom_info", EAtom.of("caf\u00e9"));
        assertEquals("caf\u00e9", charsOf(info.get(0)));
        assertEquals(ESmall.of(4), info.get(1));
        assertThrows(ErlangException.class, () -> call("atom_info", EAtom.of("\u4e2d")));   // not Latin-1
        assertEquals(EAtom.of("\u00e5\u00e4\u00f6"), call("make_atom", EBitString.of(new byte[] {(byte) 0xE5, (byte) 0xE4, (byte) 0xF6})));
        Term deep = ENil.NIL;
        for (int k = 0; k < 200_000; k++) deep = new ECons(ESmall.of(k), deep);
        Term nested = ENil.NIL;
        for (int k = 0; k < 1000; k++) nested = ETuple.of(nested, ESmall.of(k));
        Term big = ETuple.of(deep, nested, EBitString.of(new byte[1 << 20]));
        assertEquals(big, call("echo", big));
        assertEquals(big, call("env_copy", big));
    }

    @Test void callOverhead() {
        NifFunction add = lib.function("add", 2);
        ESmall one = ESmall.of(1);
        long sum = 0;
        for (int k = 0; k < 200_000; k++) sum += ((ESmall) add.call(null, ESmall.of(k), one)).value;
        int n = 1_000_000;
        long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) sum += ((ESmall) add.call(null, ESmall.of(k), one)).value;
        long ns = (System.nanoTime() - t0) / n;
        System.out.println("NIF call overhead: add/2 " + ns + " ns per call (" + sum + ")");
        assertTrue(ns < 20_000);
    }
}
