package org.jbeam.ets;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * A compiled match specification {@code [{Head, Guards, Body}]}: OTP's db_match_compile /
 * db_prog_match for tables. {@link #run} applies the first clause whose head matches and whose
 * guards are all {@code true}, yielding the value of the body's last expression.
 */
public final class MatchSpec {
    static final EAtom UNDERSCORE = EAtom.of("_");
    /**
     * A spec OTP rejects, with the explanation erts' match-spec compiler gives (erl_db_util.c's
     * error texts): ets:test_ms/2 and erlang:match_spec_test/3 return it, every other caller
     * raises badarg.
     */
    public static final class Invalid extends RuntimeException {
        Invalid(String text) { super(text, null, false, false); }
    }

    static Invalid invalid(String text) { return new Invalid(text); }

    /** One clause; {@code headTerm} is kept for table-specific analysis (bound keys, select_replace). */
    record Clause(Term headTerm, MsPattern head, int nvars, MsExpr[] guards, MsExpr[] body) {}

    final Clause[] clauses;

    private MatchSpec(Clause[] clauses) { this.clauses = clauses; }

    /** Compiles {@code ms}; an empty list is allowed only when {@code allowEmpty} (ets:select/2). */
    public static MatchSpec compile(Term ms, BifTable bifs, boolean allowEmpty) { return compile(ms, bifs, allowEmpty, false); }

    /** A trace match spec (erlang:trace_pattern/3): matched against the argument list; its actions go to {@link #runTrace}. */
    public static MatchSpec compileTrace(Term ms, BifTable bifs) { return compile(ms, bifs, true, true); }

    private static MatchSpec compile(Term ms, BifTable bifs, boolean allowEmpty, boolean trace) {
        Term[] cl = ECons.toArray(ms);
        if (cl == null || (cl.length == 0 && !allowEmpty)) throw ErlangException.badarg();
        try {
            return compileExplained(cl, bifs, trace);
        } catch (Invalid e) {
            throw ErlangException.badarg();
        }
    }

    /**
     * Compiles {@code ms} (a table spec, or a trace spec when {@code trace}) as ets:test_ms/2 does:
     * {@link Invalid} with erts' explanation when OTP would reject it.
     */
    public static MatchSpec compileExplained(Term ms, BifTable bifs, boolean trace) {
        Term[] cl = ECons.toArray(ms);
        if (cl == null || cl.length == 0 && !trace) throw invalid("Match programs are not in a list.");
        return compileExplained(cl, bifs, trace);
    }

    private static MatchSpec compileExplained(Term[] cl, BifTable bifs, boolean trace) {
        Clause[] out = new Clause[cl.length];
        for (int i = 0; i < cl.length; i++) out[i] = clause(cl[i], bifs, trace);
        return new MatchSpec(out);
    }

    private static Clause clause(Term c, BifTable bifs, boolean trace) {
        if (!(c instanceof ETuple t) || t.arity() != 3) throw invalid("Match program part is not a tuple of arity 3.");
        Term[] guards = ECons.toArray(t.get(1)), body = ECons.toArray(t.get(2));
        if (guards == null) throw invalid("Match expression is not a list.");
        if (body == null || body.length == 0) throw invalid("Body clause does not return anything.");
        TreeMap<Long, Integer> slots = new TreeMap<>();
        MsPattern.collectVars(t.get(0), slots);
        int n = 0;
        for (Map.Entry<Long, Integer> e : slots.entrySet()) e.setValue(n++);
        MsPattern head = MsPattern.compile(t.get(0), slots, new boolean[n]);
        MsExpr[] g = new MsExpr[guards.length], b = new MsExpr[body.length];
        for (int i = 0; i < g.length; i++) g[i] = MsExpr.compile(guards[i], slots, bifs);
        for (int i = 0; i < b.length; i++) b[i] = MsExpr.compile(body[i], slots, bifs, trace);
        return new Clause(t.get(0), head, n, g, b);
    }

    /** The result for {@code obj}, or null when no clause matches. */
    public Term run(Term obj, ErlProcess p) {
        for (Clause c : clauses) {
            Term[] vars = c.nvars == 0 ? NOVARS : new Term[c.nvars];
            if (!c.head.match(obj, vars)) continue;
            if (!guardsPass(c, obj, vars, p)) continue;
            MsExpr.Ctx ctx = new MsExpr.Ctx(obj, vars, p, true);
            Term r = null;
            for (MsExpr e : c.body) r = e.eval(ctx);
            return r;
        }
        return null;
    }

    private static final Term[] NOVARS = new Term[0];

    /**
     * Runs a trace match spec on a call's argument list: false when no clause matches (no trace
     * message), else true with the clause's actions recorded in {@code out}.
     */
    public boolean runTrace(Term args, ErlProcess p, TraceActions out) {
        for (Clause c : clauses) {
            Term[] vars = c.nvars == 0 ? NOVARS : new Term[c.nvars];
            if (!c.head.match(args, vars)) continue;
            if (!guardsPass(c, args, vars, p)) continue;
            MsExpr.Ctx ctx = new MsExpr.Ctx(args, vars, p, true, out);
            for (MsExpr e : c.body) e.eval(ctx);
            return true;
        }
        return false;
    }

    private static boolean guardsPass(Clause c, Term obj, Term[] vars, ErlProcess p) {
        if (c.guards.length == 0) return true;
        MsExpr.Ctx ctx = new MsExpr.Ctx(obj, vars, p, false);
        try {
            for (MsExpr g : c.guards) if (g.eval(ctx) != EAtom.TRUE) return false;
            return true;
        } catch (MsExpr.Fail f) {
            return false;
        }
    }

    /** ets:match_spec_run_r/3: results prepended to {@code acc} in list order. */
    public Term runReversed(Term list, Term acc, ErlProcess p) {
        Term t = list;
        while (t instanceof ECons c) {
            Term r = run(c.head, p);
            if (r != null) acc = new ECons(r, acc);
            t = c.tail;
        }
        if (t != ENil.NIL) throw ErlangException.badarg();
        return acc;
    }

    /**
     * The keys this spec can match in a table with key position {@code keypos}, when every clause's
     * head binds the key to a constant; null when a full scan is needed.
     */
    public List<Term> boundKeys(int keypos) {
        List<Term> keys = new ArrayList<>();
        for (Clause c : clauses) {
            if (!(c.head instanceof MsPattern.Tup t)) {
                // A head with no variables is one constant: a tuple then names its key, anything
                // else never matches an object.
                if (c.head instanceof MsPattern.Const k) {
                    if (k.value instanceof ETuple kt && kt.arity() >= keypos) keys.add(kt.get(keypos - 1));
                    continue;
                }
                return null;
            }
            if (t.elems.length < keypos) continue; // never matches
            if (!(t.elems[keypos - 1] instanceof MsPattern.Const k)) return null;
            keys.add(k.value);
        }
        return keys;
    }

    /**
     * select_replace's static check (OTP's db_match_keeps_key): every clause's body must be a
     * single tuple construction (or '$_') whose key element is the head's key variable or the same
     * constant key.
     */
    public boolean keepsKey(int keypos) {
        for (Clause c : clauses) {
            if (c.body.length != 1) return false;
            MsExpr b = c.body[0];
            if (b instanceof MsExpr.ObjE) continue;
            if (!(b instanceof MsExpr.TupleE te) || te.elems.length < keypos) return false;
            if (!(c.head instanceof MsPattern.Tup ht) || ht.elems.length < keypos) {
                if (c.head instanceof MsPattern.Tup || c.head instanceof MsPattern.Const) continue; // never matches
                return false;
            }
            MsPattern hk = ht.elems[keypos - 1];
            MsExpr bk = te.elems[keypos - 1];
            boolean ok = switch (hk) {
                case MsPattern.Bind hb -> bk instanceof MsExpr.VarE v && v.slot == hb.slot;
                case MsPattern.Const hc -> bk instanceof MsExpr.ConstE bc && bc.v.equals(hc.value);
                default -> false;
            };
            if (!ok) return false;
        }
        return true;
    }
}
