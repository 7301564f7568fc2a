package org.jbeam.ets;

import java.util.Map;

import org.jbeam.bif.Bif;
import org.jbeam.bif.BifTable;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Match-specification guard and body expressions ({@code erl_db_util.c} "guard"/"body" part).
 * In a guard any failure fails the clause; in a body a failing call yields the atom 'EXIT' in
 * its place and evaluation continues, as OTP's match programs do for table match specs.
 */
abstract sealed class MsExpr {
    /** Evaluation context: the matched object, its bindings, the calling process, body or guard mode. */
    record Ctx(Term obj, Term[] vars, ErlProcess p, boolean body, TraceActions out) {
        Ctx(Term obj, Term[] vars, ErlProcess p, boolean body) { this(obj, vars, p, body, null); }
    }

    /** A trace match spec's action (return_trace, exception_trace, message/1): recorded in the context's {@link TraceActions}. */
    static final class TraceActionE extends MsExpr {
        final String name;
        final MsExpr arg;
        TraceActionE(String name, MsExpr arg) { this.name = name; this.arg = arg; }
        @Override Term eval(Ctx c) {
            TraceActions out = c.out();
            switch (name) {
                case "return_trace" -> out.returnTrace = true;
                case "exception_trace" -> { out.returnTrace = true; out.exceptionTrace = true; }
                case "message" -> out.message = arg.eval(c);
                default -> { return out.caller; } // caller
            }
            return EAtom.TRUE;
        }
    }

    /** Guard failure (no stack trace: control flow). */
    static final class Fail extends RuntimeException {
        static final Fail INSTANCE = new Fail();
        private Fail() { super(null, null, false, false); }
    }

    static final EAtom EXIT = EAtom.of("EXIT");

    abstract Term eval(Ctx c);

    static Term fail(Ctx c) {
        if (c.body()) return EXIT;
        throw Fail.INSTANCE;
    }

    static final class ConstE extends MsExpr {
        final Term v;
        ConstE(Term v) { this.v = v; }
        @Override Term eval(Ctx c) { return v; }
    }

    static final class VarE extends MsExpr {
        final int slot;
        VarE(int slot) { this.slot = slot; }
        @Override Term eval(Ctx c) { return c.vars()[slot]; }
    }

    static final class ObjE extends MsExpr {
        @Override Term eval(Ctx c) { return c.obj(); }
    }

    /** '$$': every variable of the head, in variable-number order. */
    static final class AllVarsE extends MsExpr {
        @Override Term eval(Ctx c) { return ECons.of(c.vars()); }
    }

    static final class TupleE extends MsExpr {
        final MsExpr[] elems;
        TupleE(MsExpr[] elems) { this.elems = elems; }
        @Override Term eval(Ctx c) {
            Term[] a = new Term[elems.length];
            for (int i = 0; i < a.length; i++) a[i] = elems[i].eval(c);
            return ETuple.of(a);
        }
    }

    static final class ConsE extends MsExpr {
        final MsExpr head, tail;
        ConsE(MsExpr head, MsExpr tail) { this.head = head; this.tail = tail; }
        @Override Term eval(Ctx c) { Term h = head.eval(c); return new ECons(h, tail.eval(c)); }
    }

    static final class MapE extends MsExpr {
        final MsExpr[] keys, vals;
        MapE(MsExpr[] keys, MsExpr[] vals) { this.keys = keys; this.vals = vals; }
        @Override Term eval(Ctx c) {
            Term[] ks = new Term[keys.length], vs = new Term[keys.length];
            for (int i = 0; i < ks.length; i++) { ks[i] = keys[i].eval(c); vs[i] = vals[i].eval(c); }
            return EMap.of(ks, vs);
        }
    }

    /** A guard BIF, run through the runtime's own erlang:F/N implementation. */
    static final class CallE extends MsExpr {
        final Bif fn;
        final MsExpr[] args;
        CallE(Bif fn, MsExpr[] args) { this.fn = fn; this.args = args; }
        @Override Term eval(Ctx c) {
            Term[] a = new Term[args.length];
            for (int i = 0; i < a.length; i++) a[i] = args[i].eval(c);
            try {
                return Bif.invoke(fn, c.p(), a);
            } catch (ErlangException e) {
                return fail(c);
            }
        }
    }

    /** and / or (strict: every argument evaluated, all must be booleans), andalso / orelse (short-circuit), not, xor. */
    static final class BoolE extends MsExpr {
        enum Op { AND, OR, ANDALSO, ORELSE, NOT, XOR }
        final Op op;
        final MsExpr[] args;
        BoolE(Op op, MsExpr[] args) { this.op = op; this.args = args; }

        @Override Term eval(Ctx c) {
            switch (op) {
                case NOT -> {
                    Term a = args[0].eval(c);
                    return a == EAtom.TRUE ? EAtom.FALSE : a == EAtom.FALSE ? EAtom.TRUE : fail(c);
                }
                case XOR -> {
                    Term a = args[0].eval(c), b = args[1].eval(c);
                    if (!isBool(a) || !isBool(b)) return fail(c);
                    return EAtom.of(a != b);
                }
                case AND, OR -> {
                    boolean and = op == Op.AND, res = and, bad = false;
                    for (MsExpr e : args) {
                        Term a = e.eval(c);
                        if (!isBool(a)) bad = true;
                        else if (and) res &= a == EAtom.TRUE;
                        else res |= a == EAtom.TRUE;
                    }
                    return bad ? fail(c) : EAtom.of(res);
                }
                default -> {
                    boolean andalso = op == Op.ANDALSO;
                    for (int i = 0; i < args.length - 1; i++) {
                        Term a = args[i].eval(c);
                        if (!isBool(a)) return fail(c);
                        if ((a == EAtom.TRUE) != andalso) return a;
                    }
                    return args[args.length - 1].eval(c);
                }
            }
        }

        static boolean isBool(Term t) { return t == EAtom.TRUE || t == EAtom.FALSE; }
    }

    // ---- compilation ----

    /** Guard functions OTP 25 allows in table match specs, with their arities ("and"-like ones take 1 or more). */
    private static final Map<String, int[]> ALLOWED = Map.ofEntries(
            Map.entry("is_atom", new int[] {1}), Map.entry("is_float", new int[] {1}), Map.entry("is_integer", new int[] {1}),
            Map.entry("is_list", new int[] {1}), Map.entry("is_number", new int[] {1}), Map.entry("is_pid", new int[] {1}),
            Map.entry("is_port", new int[] {1}), Map.entry("is_reference", new int[] {1}), Map.entry("is_tuple", new int[] {1}),
            Map.entry("is_map", new int[] {1}), Map.entry("is_map_key", new int[] {2}), Map.entry("is_binary", new int[] {1}),
            Map.entry("is_function", new int[] {1}), Map.entry("is_record", new int[] {3}), Map.entry("abs", new int[] {1}),
            Map.entry("element", new int[] {2}), Map.entry("hd", new int[] {1}), Map.entry("length", new int[] {1}),
            Map.entry("map_get", new int[] {2}), Map.entry("map_size", new int[] {1}), Map.entry("node", new int[] {0, 1}),
            Map.entry("round", new int[] {1}), Map.entry("size", new int[] {1}), Map.entry("bit_size", new int[] {1}),
            Map.entry("byte_size", new int[] {1}), Map.entry("tl", new int[] {1}), Map.entry("trunc", new int[] {1}),
            Map.entry("binary_part", new int[] {2, 3}), Map.entry("float", new int[] {1}), Map.entry("self", new int[] {0}),
            Map.entry(">", new int[] {2}), Map.entry(">=", new int[] {2}), Map.entry("<", new int[] {2}),
            Map.entry("=<", new int[] {2}), Map.entry("=:=", new int[] {2}), Map.entry("==", new int[] {2}),
            Map.entry("=/=", new int[] {2}), Map.entry("/=", new int[] {2}), Map.entry("+", new int[] {1, 2}),
            Map.entry("-", new int[] {1, 2}), Map.entry("*", new int[] {2}), Map.entry("/", new int[] {2}),
            Map.entry("div", new int[] {2}), Map.entry("rem", new int[] {2}), Map.entry("band", new int[] {2}),
            Map.entry("bor", new int[] {2}), Map.entry("bxor", new int[] {2}), Map.entry("bnot", new int[] {1}),
            Map.entry("bsl", new int[] {2}), Map.entry("bsr", new int[] {2}));

    /** The trace dialect's actions: in a table spec erts rejects them as special forms of the wrong dialect. */
    private static final java.util.Set<String> TRACE_FORMS = java.util.Set.of("message", "return_trace", "exception_trace",
            "process_dump", "enable_trace", "disable_trace", "trace", "display", "caller", "caller_line", "set_tcw",
            "silent", "set_seq_token", "get_seq_token", "is_seq_trace");

    /** '$N', '$_' or '$$': a match variable, never a function name. */
    private static boolean isVariable(EAtom a) { return MsPattern.varNumber(a) >= 0 || a.name.equals("$_") || a.name.equals("$$"); }

    private static MatchSpec.Invalid noFunction(EAtom f, int n) {
        return MatchSpec.invalid("Function " + TermPrinter.display(f) + "/" + n + " does_not_exist.");
    }

    /** Compiles a guard or body expression; throws {@link MatchSpec.Invalid} with erts' text for anything OTP rejects. */
    static MsExpr compile(Term t, Map<Long, Integer> slots, BifTable bifs) { return compile(t, slots, bifs, false); }

    /** {@code trace}: a trace match spec's body, where the trace actions are allowed too. */
    static MsExpr compile(Term t, Map<Long, Integer> slots, BifTable bifs, boolean trace) {
        switch (t) {
            case EAtom a -> {
                if (a.name.equals("$_")) return new ObjE();
                if (a.name.equals("$$")) return new AllVarsE();
                long v = MsPattern.varNumber(a);
                if (v >= 0) {
                    Integer s = slots.get(v);
                    if (s == null) throw MatchSpec.invalid("Variable " + a.name + " is unbound.");
                    return new VarE(s);
                }
                return new ConstE(a);
            }
            case ETuple tu -> {
                if (tu.arity() == 1 && tu.get(0) instanceof ETuple inner) {
                    MsExpr[] el = new MsExpr[inner.arity()];
                    for (int i = 0; i < el.length; i++) el[i] = compile(inner.get(i), slots, bifs, trace);
                    return new TupleE(el);
                }
                if (tu.arity() == 0 || !(tu.get(0) instanceof EAtom f) || isVariable(f))
                    throw MatchSpec.invalid(TermPrinter.display(tu) + " is neither a function call, nor a tuple (tuples are written {{ ... }}).");
                int n = tu.arity() - 1;
                if (f.name.equals("const")) {
                    if (n == 1) return new ConstE(tu.get(1));
                    throw MatchSpec.invalid("Special form 'const' called with more than one argument in " + TermPrinter.display(tu) + ".");
                }
                MsExpr[] args = new MsExpr[n];
                for (int i = 0; i < n; i++) args[i] = compile(tu.get(i + 1), slots, bifs, trace);
                if (trace) {
                    String a = f.name;
                    if ((a.equals("return_trace") || a.equals("exception_trace") || a.equals("caller")) && n == 0
                            || a.equals("message") && n == 1)
                        return new TraceActionE(a, n == 1 ? args[0] : null);
                } else if (TRACE_FORMS.contains(f.name)) {
                    throw MatchSpec.invalid("Special form '" + f.name + "' used in wrong dialect.");
                }
                BoolE.Op op = switch (f.name) {
                    case "and" -> BoolE.Op.AND; case "or" -> BoolE.Op.OR; case "andalso" -> BoolE.Op.ANDALSO;
                    case "orelse" -> BoolE.Op.ORELSE; case "not" -> BoolE.Op.NOT; case "xor" -> BoolE.Op.XOR;
                    default -> null;
                };
                if (op != null) {
                    if (op == BoolE.Op.NOT && n != 1 || op == BoolE.Op.XOR && n != 2) throw noFunction(f, n);
                    if (n == 0) throw MatchSpec.invalid("Special form '" + f.name + "' called without arguments in " + TermPrinter.display(tu) + ".");
                    return new BoolE(op, args);
                }
                int[] arities = ALLOWED.get(f.name);
                boolean ok = false;
                if (arities != null) for (int a : arities) ok |= a == n;
                if (!ok) throw noFunction(f, n);
                BifTable.Entry e = bifs.lookup("erlang", f.name, n);
                if (e == null) throw new IllegalStateException("erlang:" + f.name + "/" + n + " is not declared");
                return new CallE(e.fn(), args);
            }
            case ECons c -> { MsExpr h = compile(c.head, slots, bifs, trace); return new ConsE(h, compile(c.tail, slots, bifs, trace)); }
            case EMap m -> {
                MsExpr[] ks = new MsExpr[m.size()], vs = new MsExpr[m.size()];
                for (int i = 0; i < ks.length; i++) { ks[i] = compile(m.keyAt(i), slots, bifs, trace); vs[i] = compile(m.valueAt(i), slots, bifs, trace); }
                return new MapE(ks, vs);
            }
            default -> { return new ConstE(t); }
        }
    }
}
