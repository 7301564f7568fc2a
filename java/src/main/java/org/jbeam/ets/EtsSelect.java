package org.jbeam.ets;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Match-spec traversals of a table: select (whole or in chunks with continuations), select_count,
 * select_delete, select_replace. An ordered_set is walked in key order (reversed for
 * select_reverse), a hash table in erts' order (HashOrder), and, as erts builds its result list by
 * prepending while it walks, a hash table's results come out last-visited first (also per chunk).
 * A spec whose every clause binds the key to a constant only visits those keys.
 * Continuations have OTP's ordered_set shape {Tab, LastKey, [], Limit, MsRef, [], Skip, Reverse}:
 * resume at LastKey, skipping the Skip objects of it already returned.
 */
public final class EtsSelect {
    private EtsSelect() {}

    public static final EAtom END = EAtom.of("$end_of_table");

    /** Receives each object with its spec result (null when no clause matched); returns false to stop. */
    interface Visitor { boolean visit(Term key, int index, Term obj, Term result); }

    /** Visits objects starting at {@code fromKey} (inclusive; null = from the start), skipping {@code skip} objects of that key. */
    static void traverse(EtsTable t, MatchSpec ms, ErlProcess p, boolean reverse, Term fromKey, int skip, Visitor v) {
        @SuppressWarnings("unchecked")
        Comparator<Term> cmp = (Comparator<Term>) t.map.comparator();
        List<Term> keys = ms.boundKeys(t.keypos);
        if (keys != null) {
            keys.sort(reverse ? cmp.reversed() : cmp);
            Term prev = null;
            for (Term k : keys) {
                if (prev != null && cmp.compare(prev, k) == 0) continue;
                prev = k;
                int c = fromKey == null ? 1 : cmp.compare(k, fromKey) * (reverse ? -1 : 1);
                if (c < 0) continue;
                Object slot = t.map.get(k);
                if (slot != null && !visitSlot(t, ms, p, slot, c == 0 ? skip : 0, v)) return;
            }
            return;
        }
        if (t.hashed()) {
            if (fromKey == null) {
                for (Term k : t.keysInOrder()) {
                    Object slot = t.map.get(k);
                    if (slot != null && !visitSlot(t, ms, p, slot, 0, v)) return;
                }
                return;
            }
            // Resuming a chunk: step on from the continuation's key (a snapshot of every key per
            // chunk would make a chunked walk quadratic in the table's size).
            if (!t.member(fromKey)) return; // the key went away meanwhile: nothing after it to find
            int s = skip;
            for (Term k = fromKey; k != null; k = t.nextInOrder(k), s = 0) {
                Object slot = t.map.get(k);
                if (slot != null && !visitSlot(t, ms, p, slot, s, v)) return;
            }
            return;
        }
        NavigableMap<Term, Object> view = reverse ? t.map.descendingMap() : t.map;
        if (fromKey != null) view = view.tailMap(fromKey, true);
        for (Map.Entry<Term, Object> e : view.entrySet()) {
            int s = fromKey != null && cmp.compare(e.getKey(), fromKey) == 0 ? skip : 0;
            if (!visitSlot(t, ms, p, e.getValue(), s, v)) return;
        }
    }

    private static boolean visitSlot(EtsTable t, MatchSpec ms, ErlProcess p, Object slot, int skip, Visitor v) {
        Term[] objs = EtsTable.objects(slot);
        // erts chains a bag key's objects newest first (insert puts a new one before its key's others).
        boolean newestFirst = t.hashed();
        for (int n = skip; n < objs.length; n++) {
            Term o = objs[newestFirst ? objs.length - 1 - n : n];
            if (!v.visit(t.keyOf(o), n, o, ms.run(o, p))) return false;
        }
        return true;
    }

    /** select/2 (and match/2, match_object/2, select_reverse/2). */
    public static Term select(EtsTable t, MatchSpec ms, ErlProcess p, boolean reverse) {
        List<Term> out = new ArrayList<>();
        traverse(t, ms, p, reverse && t.type == EtsTable.Type.ORDERED_SET, null, 0, (k, i, o, r) -> {
            if (r != null) out.add(r);
            return true;
        });
        return results(t, out);
    }

    /** A result list as erts builds it: a hash table's last visited first. */
    private static Term results(EtsTable t, List<Term> out) {
        if (!t.hashed()) return ECons.of(out);
        EList l = ENil.NIL;
        for (Term r : out) l = new ECons(r, l);
        return l;
    }

    /** One chunk of select/3: {Results, Continuation} or '$end_of_table'. */
    public static Term chunk(EtsTable t, MatchSpec ms, ERef msRef, int limit, ErlProcess p, boolean reverse, Term fromKey, int skip) {
        List<Term> out = new ArrayList<>();
        Term[] last = new Term[1];
        int[] lastSkip = new int[1];
        traverse(t, ms, p, reverse, fromKey, skip, (k, i, o, r) -> {
            if (r != null) out.add(r);
            if (out.size() < limit) return true;
            last[0] = k;
            lastSkip[0] = i + 1;
            return false;
        });
        if (last[0] == null) return out.isEmpty() ? END : ETuple.of(results(t, out), END);
        Term cont = ETuple.of(t.tid(), last[0], ENil.NIL, ESmall.of(limit), msRef, ENil.NIL, ESmall.of(lastSkip[0]),
                ESmall.of(reverse ? 1 : 0));
        return ETuple.of(results(t, out), cont);
    }

    /** select/1 on a continuation. */
    public static Term resume(EtsTables ts, Term cont, ErlProcess p, java.util.function.Function<Term, EtsTable> readable) {
        if (cont == END) return END;
        if (!(cont instanceof ETuple c) || c.arity() != 8 || !(c.get(3) instanceof ESmall lim) || lim.value <= 0
                || !(c.get(6) instanceof ESmall skip) || !(c.get(7) instanceof ESmall rev)) throw ErlangException.badarg();
        MatchSpec ms = ts.compiled(c.get(4));
        if (ms == null) throw ErlangException.badarg();
        EtsTable t = readable.apply(c.get(0));
        return chunk(t, ms, (ERef) c.get(4), (int) Math.min(lim.value, Integer.MAX_VALUE), p, rev.value == 1,
                c.get(1), (int) skip.value);
    }

    public static long count(EtsTable t, MatchSpec ms, ErlProcess p) {
        long[] n = new long[1];
        traverse(t, ms, p, false, null, 0, (k, i, o, r) -> {
            if (r == EAtom.TRUE) n[0]++;
            return true;
        });
        return n[0];
    }

    public static long delete(EtsTable t, MatchSpec ms, ErlProcess p) {
        List<Term> victims = new ArrayList<>();
        traverse(t, ms, p, false, null, 0, (k, i, o, r) -> {
            if (r == EAtom.TRUE) victims.add(o);
            return true;
        });
        long n = 0;
        for (Term o : victims) if (t.removeObject(o)) n++;
        return n;
    }

    public static long replace(EtsTable t, MatchSpec ms, ErlProcess p) {
        if (t.isBag() || !ms.keepsKey(t.keypos)) throw ErlangException.badarg();
        @SuppressWarnings("unchecked")
        Comparator<Term> cmp = (Comparator<Term>) t.map.comparator();
        List<Term[]> repl = new ArrayList<>();
        traverse(t, ms, p, false, null, 0, (k, i, o, r) -> {
            if (r != null && t.validObject(r) && cmp.compare(t.keyOf(r), k) == 0) repl.add(new Term[] {o, r});
            return true;
        });
        long n = 0;
        for (Term[] pr : repl) {
            synchronized (t) {
                if (t.map.get(t.keyOf(pr[0])) == pr[0]) { t.replace(pr[1]); n++; }
            }
        }
        return n;
    }
}
