package org.jbeam.bif;

import java.util.HashMap;
import java.util.Map;

import org.jbeam.term.EAtom;

/**
 * The registry of native functions: {@code module:name/arity} → implementation. The counterpart
 * of OTP's bif.tab plus the NIF-implemented parts of preloaded and stdlib modules.
 */
public final class BifTable {
    /** One declared native function. {@code guard} marks guard-safe BIFs (allowed in guards). */
    public record Entry(EAtom module, EAtom name, int arity, Bif fn, boolean guard) {
        public String mfa() { return module.name + ":" + name.name + "/" + arity; }
    }

    private final Map<String, Entry> entries = new HashMap<>();
    private final java.util.Set<String> keepBody = new java.util.HashSet<>();

    private static String key(String m, String f, int a) { return m + ":" + f + "/" + a; }

    public Entry lookup(EAtom m, EAtom f, int arity) { return entries.get(key(m.name, f.name, arity)); }
    public Entry lookup(String m, String f, int arity) { return entries.get(key(m, f, arity)); }

    public java.util.Collection<Entry> all() { return entries.values(); }

    /**
     * Marks a native that replaces an Erlang function (prim_inet's option coding, say) as covering only
     * the common cases: the loader keeps the function's Erlang body reachable, and the native hands
     * anything else to it with {@code Natives.fallback} (exactly the OTP code then runs).
     */
    public void keepErlangBody(String m, String f, int arity) {
        if (lookup(m, f, arity) == null) throw new IllegalStateException("no native " + key(m, f, arity));
        keepBody.add(key(m, f, arity));
    }

    public boolean keepsErlangBody(EAtom m, EAtom f, int arity) { return keepBody.contains(key(m.name, f.name, arity)); }

    private void put(String m, String f, int arity, Bif fn, boolean guard) {
        Entry e = new Entry(EAtom.of(m), EAtom.of(f), arity, fn, guard);
        if (entries.put(key(m, f, arity), e) != null) throw new IllegalStateException("BIF declared twice: " + e.mfa());
    }

    public void bif0(String m, String f, Bif.F0 fn) { put(m, f, 0, fn, false); }
    public void bif1(String m, String f, Bif.F1 fn) { put(m, f, 1, fn, false); }
    public void bif2(String m, String f, Bif.F2 fn) { put(m, f, 2, fn, false); }
    public void bif3(String m, String f, Bif.F3 fn) { put(m, f, 3, fn, false); }
    public void bifN(String m, String f, int arity, Bif.N fn) { put(m, f, arity, fn, false); }
    public void bif4(String m, String f, Bif.N fn) { put(m, f, 4, fn, false); }
    /** Guard-safe BIFs (type tests, arithmetic, element/2, …). */
    public void guard1(String m, String f, Bif.F1 fn) { put(m, f, 1, fn, true); }
    public void guard2(String m, String f, Bif.F2 fn) { put(m, f, 2, fn, true); }
    public void guard3(String m, String f, Bif.F3 fn) { put(m, f, 3, fn, true); }
    public void guard0(String m, String f, Bif.F0 fn) { put(m, f, 0, fn, true); }
}
