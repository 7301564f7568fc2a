package org.jbeam.ets;

import java.util.Map;
import java.util.TreeMap;

import org.jbeam.term.*;

/**
 * Match-specification head patterns ({@code erl_db_util.c} "match" part): '_' matches anything,
 * {@code '$N'} binds on first occurrence and compares exactly ({@code =:=}) afterwards, everything
 * else matches exactly. Ground sub-terms compile to a single exact comparison.
 */
abstract sealed class MsPattern {
    /** Matches {@code t}, binding variables into {@code vars} (slots assigned in variable-number order). */
    abstract boolean match(Term t, Term[] vars);

    static final class Any extends MsPattern {
        static final Any INSTANCE = new Any();
        @Override boolean match(Term t, Term[] vars) { return true; }
    }

    static final class Bind extends MsPattern {
        final int slot;
        Bind(int slot) { this.slot = slot; }
        @Override boolean match(Term t, Term[] vars) { vars[slot] = t; return true; }
    }

    static final class Check extends MsPattern {
        final int slot;
        Check(int slot) { this.slot = slot; }
        @Override boolean match(Term t, Term[] vars) { return vars[slot].equals(t); }
    }

    static final class Const extends MsPattern {
        final Term value;
        Const(Term value) { this.value = value; }
        @Override boolean match(Term t, Term[] vars) { return value.equals(t); }
    }

    static final class Tup extends MsPattern {
        final MsPattern[] elems;
        Tup(MsPattern[] elems) { this.elems = elems; }
        @Override boolean match(Term t, Term[] vars) {
            if (!(t instanceof ETuple tu) || tu.arity() != elems.length) return false;
            for (int i = 0; i < elems.length; i++) if (!elems[i].match(tu.get(i), vars)) return false;
            return true;
        }
    }

    static final class Cons extends MsPattern {
        final MsPattern head, tail;
        Cons(MsPattern head, MsPattern tail) { this.head = head; this.tail = tail; }
        @Override boolean match(Term t, Term[] vars) {
            return t instanceof ECons c && head.match(c.head, vars) && tail.match(c.tail, vars);
        }
    }

    static final class MapP extends MsPattern {
        final Term[] keys;
        final MsPattern[] vals;
        MapP(Term[] keys, MsPattern[] vals) { this.keys = keys; this.vals = vals; }
        @Override boolean match(Term t, Term[] vars) {
            if (!(t instanceof EMap m)) return false;
            for (int i = 0; i < keys.length; i++) {
                Term v = m.get(keys[i]);
                if (v == null || !vals[i].match(v, vars)) return false;
            }
            return true;
        }
    }

    // ---- compilation ----

    /** The variable number of a {@code '$N'} atom, or -1 ({@code '$01'}, {@code '$a'} are plain atoms). */
    static long varNumber(Term t) {
        if (!(t instanceof EAtom a)) return -1;
        String s = a.name;
        int n = s.length();
        if (n < 2 || n > 19 || s.charAt(0) != '$') return -1;
        if (s.charAt(1) == '0' && n > 2) return -1;
        for (int i = 1; i < n; i++) if (s.charAt(i) < '0' || s.charAt(i) > '9') return -1;
        return Long.parseLong(s.substring(1));
    }

    static boolean isAny(Term t) { return t == MatchSpec.UNDERSCORE; }

    /** Collects the head's variable numbers (sorted map number → slot filled later). */
    static void collectVars(Term t, TreeMap<Long, Integer> out) {
        while (true) {
            long v = varNumber(t);
            if (v >= 0) { out.put(v, 0); return; }
            switch (t) {
                case ETuple tu -> { for (int i = 0; i < tu.arity(); i++) collectVars(tu.get(i), out); return; }
                case ECons c -> { collectVars(c.head, out); t = c.tail; }
                case EMap m -> { for (int i = 0; i < m.size(); i++) { collectVars(m.keyAt(i), out); collectVars(m.valueAt(i), out); } return; }
                default -> { return; }
            }
        }
    }

    /** True when {@code t} has no variables and no '_' (it matches only itself). */
    static boolean ground(Term t) {
        while (true) {
            if (varNumber(t) >= 0 || isAny(t)) return false;
            switch (t) {
                case ETuple tu -> { for (int i = 0; i < tu.arity(); i++) if (!ground(tu.get(i))) return false; return true; }
                case ECons c -> { if (!ground(c.head)) return false; t = c.tail; }
                case EMap m -> { for (int i = 0; i < m.size(); i++) if (!ground(m.keyAt(i)) || !ground(m.valueAt(i))) return false; return true; }
                default -> { return true; }
            }
        }
    }

    /** Compiles a head; {@code slots} maps variable numbers to slots, {@code bound} tracks first occurrences. */
    static MsPattern compile(Term t, Map<Long, Integer> slots, boolean[] bound) {
        if (isAny(t)) return Any.INSTANCE;
        long v = varNumber(t);
        if (v >= 0) {
            int s = slots.get(v);
            if (bound[s]) return new Check(s);
            bound[s] = true;
            return new Bind(s);
        }
        if (ground(t)) return new Const(t);
        switch (t) {
            case ETuple tu -> {
                MsPattern[] el = new MsPattern[tu.arity()];
                for (int i = 0; i < el.length; i++) el[i] = compile(tu.get(i), slots, bound);
                return new Tup(el);
            }
            case ECons c -> {
                MsPattern h = compile(c.head, slots, bound);
                return new Cons(h, compile(c.tail, slots, bound));
            }
            case EMap m -> {
                Term[] ks = new Term[m.size()];
                MsPattern[] vs = new MsPattern[m.size()];
                for (int i = 0; i < ks.length; i++) {
                    if (!ground(m.keyAt(i))) throw MatchSpec.invalid("Variable found in map key.");
                    ks[i] = m.keyAt(i);
                    vs[i] = compile(m.valueAt(i), slots, bound);
                }
                return new MapP(ks, vs);
            }
            default -> { return new Const(t); }
        }
    }
}
