package org.jbeam.interp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FuncInfo;
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.code.SelectTable;
import org.jbeam.term.*;

/**
 * The interpreter's side of the bytecode tier (ADR 0008): finding hot functions, installing
 * their compiled code, and the small helpers compiled code calls (all static, small enough for
 * HotSpot to inline into the compiled function).
 *
 * <p>Hotness is sampled, not counted: when a process is preempted at a call (its reductions ran
 * out), the function it was about to enter gets a sample. A function sampled
 * {@link #THRESHOLD} times is compiled on the spot. The interpreter's hot path pays nothing.
 */
public final class JitSupport {
    private JitSupport() {}

    public static final boolean ENABLED = !"false".equals(System.getProperty("jbeam.jit"));
    static final boolean DEBUG = Boolean.getBoolean("jbeam.jit.debug");
    public static final int THRESHOLD = Integer.getInteger("jbeam.jit.threshold", 3);

    /** Compiles a function into a {@link CompiledFunction}, or returns null when it cannot. */
    public interface Compiler {
        CompiledFunction compile(FuncInfo f, MethodHandles.Lookup lookup);
    }

    private static volatile Compiler compiler;

    /** Set once by the jit package (keeps interp free of a dependency on the code generator). */
    public static void setCompiler(Compiler c) { compiler = c; }

    /** A full-privilege lookup in this package: compiled functions live here as hidden classes. */
    static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    /** Calls (through an export, or from compiled code) after which a function is compiled. */
    public static final int CALL_THRESHOLD = Integer.getInteger("jbeam.jit.calls", 2000);

    /** Compile the function containing {@code pc} now (it was called often enough). */
    static void hot(BeamModule m, int pc) {
        Compiler c = compiler;
        if (c == null || m.functions == null) return;
        FuncInfo f = m.functionAt(pc);
        if (f != null && f.jitState == 0) compileNow(c, f);
    }

    /** Compiled code calling a local function that is still interpreted. */
    static void callOut(FuncInfo f) {
        if (f.jitState == 0 && ++f.calls == CALL_THRESHOLD) {
            Compiler c = compiler;
            if (c != null) compileNow(c, f);
        }
    }

    /** Called when a process is preempted on its way into {@code pc} of module {@code m}. */
    static void sample(BeamModule m, int pc) {
        Compiler c = compiler;
        if (c == null || m.functions == null) return;
        FuncInfo f = m.functionAt(pc);
        if (f == null || f.jitState != 0) return;
        if (++f.samples < THRESHOLD) return;
        compileNow(c, f);
    }

    /** Testing aid ({@code -Djbeam.jit.eager=true}): compile every function as its module loads. */
    public static final boolean EAGER = Boolean.getBoolean("jbeam.jit.eager");

    public static void compileAll(BeamModule m) {
        Compiler c = compiler;
        if (c == null || m.functions == null) return;
        for (FuncInfo f : m.functions) compileNow(c, f);
    }

    private static void compileNow(Compiler c, FuncInfo f) {
        synchronized (f) {
            if (f.jitState != 0) return;
            f.jitState = 2; // failed, unless installed below
            CompiledFunction cf;
            try {
                cf = c.compile(f, LOOKUP);
            } catch (RuntimeException | LinkageError e) {
                if (Boolean.getBoolean("jbeam.debug")) e.printStackTrace();
                cf = null;
            }
            if (DEBUG) System.err.println("jit: " + f + (cf == null ? " not compilable" : " compiled"));
            if (cf == null) return;
            install(f, cf);
            f.jitState = 1;
        }
    }

    /**
     * Points the function's entry and every return point inside it at the compiled code. Other
     * schedulers may still read the old instruction for a while: both run the same semantics on
     * the same frame layout, so either is correct.
     */
    private static void install(FuncInfo f, CompiledFunction cf) {
        Instr[] code = f.module.code;
        for (int pc : cf.entries) {
            Instr orig = code[pc];
            Instr enter = new Instr(Ops.JIT_ENTER);
            enter.o = cf;
            enter.line = orig.line;
            code[pc] = enter;
        }
    }

    // ---- helpers called by compiled code ----

    static boolean less(Term a, Term b) {
        return a instanceof ESmall s && b instanceof ESmall t ? s.value < t.value : TermOrder.compare(a, b) < 0;
    }

    /** Small-integer sum, or null when the general BIF must run (bignums, floats, errors). */
    static Term add(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value + y.value;
            if (((x.value ^ r) & (y.value ^ r)) >= 0) return ESmall.of(r);
        }
        return null;
    }

    static Term sub(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long r = x.value - y.value;
            if (((x.value ^ y.value) & (x.value ^ r)) >= 0) return ESmall.of(r);
        }
        return null;
    }

    static Term element(Term i, Term t) {
        if (i instanceof ESmall s && t instanceof ETuple tup && s.value >= 1 && s.value <= tup.arity()) return tup.get((int) s.value - 1);
        return null;
    }

    static Term mul(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y) {
            long hi = Math.multiplyHigh(x.value, y.value), lo = x.value * y.value;
            if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) return ESmall.of(lo);
        }
        return null;
    }

    static Term rem(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y && y.value != 0 && (y.value != -1 || x.value != Long.MIN_VALUE))
            return ESmall.of(x.value % y.value);
        return null;
    }

    static Term idiv(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y && y.value != 0 && (y.value != -1 || x.value != Long.MIN_VALUE))
            return ESmall.of(x.value / y.value);
        return null;
    }

    static Term band(Term a, Term b) { return a instanceof ESmall x && b instanceof ESmall y ? ESmall.of(x.value & y.value) : null; }

    static Term bor(Term a, Term b) { return a instanceof ESmall x && b instanceof ESmall y ? ESmall.of(x.value | y.value) : null; }

    static Term bxor(Term a, Term b) { return a instanceof ESmall x && b instanceof ESmall y ? ESmall.of(x.value ^ y.value) : null; }

    static Term bsr(Term a, Term b) {
        return a instanceof ESmall x && b instanceof ESmall y && y.value >= 0 && y.value <= 63 ? ESmall.of(x.value >> y.value) : null;
    }

    static Term bsl(Term a, Term b) {
        if (a instanceof ESmall x && b instanceof ESmall y && y.value >= 0 && y.value < 63) {
            long r = x.value << y.value;
            if (r >> y.value == x.value) return ESmall.of(r);
        }
        return null;
    }

    static boolean eq(Term a, Term b) {
        return a instanceof ESmall s && b instanceof ESmall t ? s.value == t.value : TermOrder.eq(a, b);
    }

    static boolean isBinary(Term t) { return t instanceof EBitString b && b.isBinaryAligned(); }

    static boolean isBoolean(Term t) { return t == EAtom.TRUE || t == EAtom.FALSE; }

    static boolean isFunction2(Term f, Term a) { return Interpreter.isFunction2(f, a); }

    static int selectTupleArity(Instr in, Term v) {
        int t = v instanceof ETuple tu ? ((SelectTable) in.o).lookupArity(tu.arity()) : -1;
        return t >= 0 ? t : in.e;
    }

    static boolean getMapElements(Interpreter it, Term map, Instr in) { return Maps.getElements(it, map, (int[]) in.o); }

    static boolean hasMapFields(Interpreter it, Term map, Instr in) { return Maps.hasFields(it, map, (int[]) in.o); }

    static Term putMapAssoc(Interpreter it, Term map, Instr in) { return Maps.putAssoc(it, map, (int[]) in.o); }

    static Term putMapExact(Interpreter it, Term map, Instr in) { return Maps.putExact(it, map, (int[]) in.o); }

    static boolean isTupleArity(Term t, int arity) { return t instanceof ETuple tup && tup.arity() == arity; }

    static boolean isTaggedTuple(Term t, int arity, Term tag) {
        return t instanceof ETuple tup && tup.arity() == arity && tup.get(0) == tag;
    }

    static boolean isSmall(Term t, long v) { return t instanceof ESmall s && s.value == v; }

    static boolean eqExact(Term a, Term b) { return a.equals(b); }

    static int select(Instr in, Term v) {
        int t = ((SelectTable) in.o).lookup(v);
        return t >= 0 ? t : in.e;
    }

    static ECons consOrNull(Term t) { return t instanceof ECons c ? c : null; }

    static Term tupleElement(Term t, int i) { return ((ETuple) t).get(i); }

    static Term floatTerm(double d) { return new EFloat(d); }

    static double toDouble(Term t) { return Floats.toDouble(t); }

    static double check(double d) { return Floats.check(d); }

    static int bitSyntax(Interpreter it, Instr in, int next) {
        int r = BitSyntax.execute(it, in, next);
        return r == BitSyntax.NEXT ? next : r;
    }

    static int slow(Interpreter it, Instr in, int next) { return SlowOps.execute(it, in, next); }

    /** Exception handling for compiled code: as the loop's catch; returns the handler pc or LEAVE. */
    static int handle(Interpreter it, org.jbeam.runtime.ErlangException ex, int pc, Instr in) {
        int h = Exceptions.handle(it, ex, pc, in);
        if (h < 0) {
            it.leaveOutcome = Interpreter.EXITED;
            return Interpreter.LEAVE;
        }
        return h;
    }

    /** Preemption at a call from compiled code: save state, leave with YIELDED. */
    static int yieldAt(Interpreter it, int pc, int live) {
        it.leaveOutcome = it.suspend(pc, live, Interpreter.YIELDED);
        return Interpreter.LEAVE;
    }

    static MethodType runType() { return MethodType.methodType(int.class, Interpreter.class, int.class); }
}
