package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The NIF/BIF functions of module {@code maps} in OTP 25 (erl_map.c), plus
 * {@code erts_internal:map_next/3}, the iterator primitive behind {@code maps:next/1},
 * {@code maps:to_list/1} and friends. {@code maps:to_list/1} itself is Erlang code in OTP 25 and is
 * not registered here ({@link #toList} is available to the runtime).
 */
public final class MapsBifs implements BifModule {
    private static final String M = "maps";
    private static final EAtom ITERATOR = EAtom.of("iterator"), NONE = EAtom.of("none");

    @Override public void register(BifTable t) {
        t.bif2(M, "get", (p, k, m) -> ErlangTermBifs.mapGet(p, k, m));
        t.bif2(M, "find", MapsBifs::find);
        t.bif1(M, "from_list", MapsBifs::fromList);
        t.bif2(M, "from_keys", MapsBifs::fromKeys);
        t.bif2(M, "is_key", (p, k, m) -> ErlangTermBifs.isMapKey(p, k, m));
        t.bif1(M, "keys", (p, m) -> keys(map(m)));
        t.bif1(M, "values", (p, m) -> values(map(m)));
        t.bif2(M, "merge", MapsBifs::merge);
        t.bif3(M, "put", (p, k, v, m) -> map(m).put(k, v));
        t.bif2(M, "remove", (p, k, m) -> map(m).remove(k));
        t.bif2(M, "take", MapsBifs::take);
        t.bif3(M, "update", MapsBifs::update);
        t.bif3("erts_internal", "map_next", MapsBifs::mapNext);
    }

    static EMap map(Term m) {
        if (m instanceof EMap map) return map;
        throw ErlangException.badmap(m);
    }

    public static Term find(ErlProcess p, Term k, Term m) {
        Term v = map(m).get(k);
        return v == null ? EAtom.ERROR : ETuple.of(EAtom.OK, v);
    }

    public static Term fromList(ErlProcess p, Term l) {
        Term[] items = ECons.toArray(l);
        if (items == null) throw ErlangException.badarg();
        Term[] ks = new Term[items.length], vs = new Term[items.length];
        for (int i = 0; i < items.length; i++) {
            if (!(items[i] instanceof ETuple t) || t.arity() != 2) throw ErlangException.badarg();
            ks[i] = t.get(0);
            vs[i] = t.get(1);
        }
        return EMap.of(ks, vs);
    }

    public static Term fromKeys(ErlProcess p, Term l, Term v) {
        Term[] ks = ECons.toArray(l);
        if (ks == null) throw ErlangException.badarg();
        Term[] vs = new Term[ks.length];
        java.util.Arrays.fill(vs, v);
        return EMap.of(ks, vs);
    }

    /** {@code merge(M1, M2)}: M2's values win. */
    public static Term merge(ErlProcess p, Term a, Term b) {
        EMap m1 = map(a), m2 = map(b);
        if (m2.size() == 0) return m1;
        if (m1.size() == 0) return m2;
        if (m2.size() <= 4) {
            EMap r = m1;
            for (int i = 0; i < m2.size(); i++) r = r.put(m2.keyAt(i), m2.valueAt(i));
            return r;
        }
        int n = m1.size() + m2.size();
        Term[] ks = new Term[n], vs = new Term[n];
        for (int i = 0; i < m1.size(); i++) { ks[i] = m1.keyAt(i); vs[i] = m1.valueAt(i); }
        for (int i = 0; i < m2.size(); i++) { ks[m1.size() + i] = m2.keyAt(i); vs[m1.size() + i] = m2.valueAt(i); }
        return EMap.of(ks, vs);
    }

    public static Term take(ErlProcess p, Term k, Term m) {
        EMap map = map(m);
        Term v = map.get(k);
        return v == null ? EAtom.ERROR : ETuple.of(v, map.remove(k));
    }

    public static Term update(ErlProcess p, Term k, Term v, Term m) {
        EMap r = map(m).update(k, v);
        if (r == null) throw ErlangException.badkey(k);
        return r;
    }

    /**
     * {@code maps:keys/1}. OTP walks a hashmap in iteration order prepending each key, so the list
     * is the reverse of the iteration order; a flatmap's keys come out sorted.
     */
    public static Term keys(EMap m) {
        Term r = ENil.NIL;
        if (m.isHashmap()) for (int i = 0; i < m.size(); i++) r = new ECons(m.keyAt(i), r);
        else for (int i = m.size() - 1; i >= 0; i--) r = new ECons(m.keyAt(i), r);
        return r;
    }

    /** {@code maps:values/1}, in the order of {@link #keys}. */
    public static Term values(EMap m) {
        Term r = ENil.NIL;
        if (m.isHashmap()) for (int i = 0; i < m.size(); i++) r = new ECons(m.valueAt(i), r);
        else for (int i = m.size() - 1; i >= 0; i--) r = new ECons(m.valueAt(i), r);
        return r;
    }

    /** Pairs {@code [{K,V}, ...]} as maps:to_list/1 returns them (the order of {@link #keys}). */
    public static Term toList(EMap m) { return prependPairs(m, ENil.NIL); }

    /** Pairs prepended to acc as erts_internal:map_next/3 does with a list accumulator. */
    private static Term prependPairs(EMap m, Term acc) {
        Term r = acc;
        if (m.isHashmap()) for (int i = 0; i < m.size(); i++) r = new ECons(ETuple.of(m.keyAt(i), m.valueAt(i)), r);
        else for (int i = m.size() - 1; i >= 0; i--) r = new ECons(ETuple.of(m.keyAt(i), m.valueAt(i)), r);
        return r;
    }

    /**
     * {@code erts_internal:map_next(Path, Map, Acc)}. As OTP does for flat maps, the whole map is
     * produced in one call: with {@code Acc = iterator} the nested chain
     * {@code {K1,V1,{K2,V2,...none}}} in iteration order; with a list Acc, all pairs prepended to
     * Acc (for a hashmap, one at a time in iteration order, as OTP; see {@link #keys}). Path must be
     * an integer in 0..map_size (it is only validated: jbeam's maps are never partially walked).
     */
    public static Term mapNext(ErlProcess p, Term path, Term m, Term acc) {
        if (!(m instanceof EMap map)) throw ErlangException.badarg();
        boolean iter;
        if (acc == ITERATOR) iter = true;
        else if (acc instanceof EList) iter = false;
        else throw ErlangException.badarg();
        if (!(path instanceof ESmall ps) || ps.value < 0 || ps.value > map.size()) throw ErlangException.badarg();
        if (!iter) return prependPairs(map, acc);
        Term r = NONE;
        for (int i = map.size() - 1; i >= 0; i--) r = ETuple.of(map.keyAt(i), map.valueAt(i), r);
        return r;
    }
}
