package org.jbeam.interp;

import java.lang.invoke.MethodHandles;

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
 * <p>Hotness: when a process is preempted at a call (its reductions ran out), the function it was
 * about to enter gets a sample; calls through exports and funs, from local call sites and from
 * compiled code are counted. A counter at its threshold ({@link #THRESHOLD} samples,
 * {@link #CALL_THRESHOLD} calls) asks {@link TierPolicy} whether the function may be compiled
 * now (hot twice within a window, and within the compile budget: ADR 0052); if not, the counter
 * starts again.
 */
public final class JitSupport {
    private JitSupport() {}

    public static final boolean ENABLED = !"false".equals(System.getProperty("jbeam.jit"));
    public static final boolean DEBUG = Boolean.getBoolean("jbeam.jit.debug");
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

    /**
     * True while a VM boots OTP (from erl_init's start until init's boot script reports
     * {@code {progress, started}}, just before -eval/-run/-s run): compile requests are put off and
     * their counters start again. The functions hot during boot (filename and code path handling)
     * are not the program's, and compiling them then cost a fifth of bin/jbeam's boot CPU: the
     * class-file library under the compiler still runs cold (JVM-interpreted) at that point.
     */
    private static volatile boolean booting;

    public static void booting(boolean b) { booting = b; }

    /** The boot has ended: {@code reductions} (the VM's reduction count) is the tier's work clock (ADR 0052). */
    public static void workClock(java.util.function.LongSupplier reductions) { TierPolicy.start(reductions); }

    /**
     * Compile the function containing {@code pc} now (it was called often enough). False when put
     * off by the boot: the caller then counts again from zero.
     */
    static boolean hot(BeamModule m, int pc) {
        if (booting) return false;
        Compiler c = compiler;
        if (c == null || m.functions == null) return true;
        FuncInfo f = m.functionAt(pc);
        if (f != null && f.jitState == 0) {
            if (!TierPolicy.admit(f, "calls")) return false;
            compileNow(c, f);
        }
        return true;
    }

    /**
     * A local call site of the interpreter loop reached the threshold: compile the callee, or
     * count again when the boot puts it off. Never inlined (-XX:CompileCommand=dontinline in
     * scripts/jvm-options.sh): C2 compiles the loop during boot (ADR 0043), when this test had
     * only ever been "put off", and inlined here it was a trap that threw the loop away at the
     * program's first compile request.
     */
    static void hotCall(Instr in, BeamModule m, int target) {
        if (!hot(m, target)) in.hits = 0;
    }

    /** Compiled code calling a local function that is still interpreted. */
    static void callOut(FuncInfo f) {
        if (f.jitState == 0 && ++f.calls == CALL_THRESHOLD) {
            Compiler c = compiler;
            if (booting || c != null && !TierPolicy.admit(f, "calls from compiled code")) f.calls = 0;
            else if (c != null) compileNow(c, f);
        }
    }

    /** Called when a process is preempted on its way into {@code pc} of module {@code m}. */
    static void sample(BeamModule m, int pc) {
        Compiler c = compiler;
        if (c == null || m.functions == null) return;
        FuncInfo f = m.functionAt(pc);
        if (f == null || f.jitState != 0) return;
        if (++f.samples < THRESHOLD || booting) return;
        if (!TierPolicy.admit(f, "samples")) { f.samples = 0; return; }
        compileNow(c, f);
    }

    /** Testing aid ({@code -Djbeam.jit.eager=true}): compile every function as its module loads. */
    public static final boolean EAGER = Boolean.getBoolean("jbeam.jit.eager");

    public static void compileAll(BeamModule m) {
        Compiler c = compiler;
        if (c == null || m.functions == null) return;
        for (FuncInfo f : m.functions) compileNow(c, f);
    }

    /**
     * Functions longer than this (loaded instructions) compile on the background thread
     * {@code jbeam-jit} while their callers go on interpreting: generating and defining the class of
     * a big function takes far longer than running it (beam_validator:vi/2, 2,791 BEAM
     * instructions, took 11.8 s at load 15 while compiling lists.erl), and on the spot that time
     * stalled a scheduler thread and every process queued on it. Small functions, the common hot
     * ones, still compile on the spot, so the next call already runs compiled.
     */
    static final int BACKGROUND_SIZE = Integer.getInteger("jbeam.jit.backgroundSize", 800);

    private static final java.util.concurrent.ExecutorService BACKGROUND = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "jbeam-jit");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        return t;
    });

    private static void compileNow(Compiler c, FuncInfo f) {
        if (f.end - f.start > BACKGROUND_SIZE && !EAGER) {
            synchronized (f) {
                if (f.jitState != 0) return;
                f.jitState = 3; // queued: no more requests
            }
            BACKGROUND.execute(() -> compileQueued(c, f));
            return;
        }
        synchronized (f) {
            if (f.jitState != 0) return;
            compileLocked(c, f);
        }
    }

    private static void compileQueued(Compiler c, FuncInfo f) {
        try {
            synchronized (f) {
                if (f.jitState == 3) compileLocked(c, f);
            }
        } catch (Throwable t) {
            f.jitState = 2;
            if (DEBUG) { System.err.println("jit: " + f + " failed in the background: " + t); t.printStackTrace(); }
        }
    }

    private static void compileLocked(Compiler c, FuncInfo f) {
        f.jitState = 2; // failed, unless installed below
        CompiledFunction cf;
        long t0 = DEBUG ? System.nanoTime() : 0;
        try {
            cf = c.compile(f, LOOKUP);
        } catch (RuntimeException | LinkageError e) {
            if (Boolean.getBoolean("jbeam.debug")) e.printStackTrace();
            cf = null;
        }
        if (DEBUG) System.err.println("jit: " + f + (cf == null ? " not compilable" : " compiled") + " in " + (System.nanoTime() - t0) / 1000 + " us, size " + (f.end - f.start));
        if (cf == null) return;
        install(f, cf);
        f.jitState = 1;
    }

    /**
     * Points the function's entry and every return point inside it at the compiled code. Other
     * schedulers may still read the old instruction for a while: both run the same semantics on
     * the same frame layout, so either is correct.
     */
    private static void install(FuncInfo f, CompiledFunction cf) {
        Instr[] code = f.module.code;
        Instr[] replaced = new Instr[cf.entries.length];
        for (int i = 0; i < replaced.length; i++) replaced[i] = code[cf.entries[i]];
        cf.replaced = replaced;
        for (int pc : cf.entries) {
            Instr orig = code[pc];
            Instr enter = new Instr(Ops.JIT_ENTER);
            enter.o = cf;
            enter.line = orig.line;
            code[pc] = enter;
        }
    }

    /**
     * Puts every function of {@code m} back to interpreted code and keeps it there (local call
     * tracing needs every local call to pass through the module's instructions). A process inside
     * a compiled function finishes that activation compiled.
     */
    public static void interpretOnly(BeamModule m) {
        if (m.functions == null) return;
        for (FuncInfo f : m.functions) {
            synchronized (f) {
                if (f.jitState == 1 && m.code[f.entry].op == Ops.JIT_ENTER
                        && m.code[f.entry].o instanceof CompiledFunction cf && cf.replaced != null) {
                    for (int i = 0; i < cf.entries.length; i++) m.code[cf.entries[i]] = cf.replaced[i];
                    cf.retire();
                }
                f.jitState = 2;
            }
        }
    }

    // ---- helpers called by compiled code ----

    /**
     * 1 when a direct call from compiled code (org.jbeam.jit.DirectCall) runs the callee at
     * {@code pc} itself: the pc is not LEAVE, the nesting bound is not reached and the callee is
     * compiled; else 0. The three tests sit here so that all call sites share their profile, which
     * the static initialiser below fills with every outcome before C2 compiles any caller: inline
     * at each site, a test that had always gone one way was compiled as a trap, and the first
     * call that went the other way (a callee compiled later, a LEAVE) cost a recompile of the
     * caller (ADR 0043).
     */
    public static int direct(Instr[] code, int pc, int nesting, int max) {
        return pc >= 0 && nesting < max && code[pc].op == Ops.JIT_ENTER ? 1 : 0;
    }

    /**
     * 1 when the interpreter is still in the compiled function's own module ({@code it.mod}), else
     * 0: the test before a compiled function's dispatch switch and its "still here" jumps. Inline,
     * a compare that had only seen the own module was a trap when C2 compiled the function before
     * its first return to another module (the end of a body-recursive call such as fib/1: ADR 0050).
     */
    public static int inModule(BeamModule current, BeamModule own) { return current == own ? 1 : 0; }

    /** Priming calls per compiled function (org.jbeam.jit.LoopPrime): enough for C2's normal-compile thresholds. */
    static final int PRIME_LIMIT = 1 << 16;

    /**
     * A self call of a compiled function (every eighth): counts one invocation of its {@code run}
     * (a call with pc -1, which returns at once) until {@link #PRIME_LIMIT}, then nothing, so the
     * steady state pays a field test (ADR 0050).
     */
    public static void prime(CompiledFunction f, Interpreter it) {
        if (f.primes < PRIME_LIMIT) {
            f.primes++;
            f.run(it, -1);
        }
    }

    /** A function for the initialiser's training calls. */
    private static final class Trivial extends CompiledFunction {
        Trivial() { super(new int[0]); }
        @Override public int run(Interpreter it, int pc) { return pc; }
    }

    static {
        Instr[] code = {new Instr(Ops.JIT_ENTER), new Instr(Ops.MOVE_XX)};
        BeamModule[] mods = {new BeamModule(EAtom.of("jit_a")), new BeamModule(EAtom.of("jit_b"))};
        CompiledFunction[] fs = {new Trivial(), new Trivial()};
        fs[1].primes = PRIME_LIMIT;
        int sink = 0;
        for (int i = 0; i < 30_000; i++) {
            int pc = switch (i % 5) { case 0 -> Interpreter.LEAVE; case 1 -> 1; default -> 0; };
            sink += direct(code, pc, i % 7 == 0 ? 64 : 3, 64);
            sink += inModule(mods[i % 3 == 0 ? 1 : 0], mods[0]);
            prime(fs[i & 1], null);
            fs[0].primes = 0;
        }
        if (sink == 42) System.out.print("");
    }

    static Term element(Term i, Term t) {
        if (i instanceof ESmall s && t instanceof ETuple tup && s.value >= 1 && s.value <= tup.arity()) return tup.get((int) s.value - 1);
        return null;
    }

    static boolean isBinary(Term t) { return t instanceof EBitString b && b.isBinaryAligned(); }

    static boolean isBoolean(Term t) { return t == EAtom.TRUE || t == EAtom.FALSE; }

    static boolean isTupleArity(Term t, int arity) { return t instanceof ETuple tup && tup.arity() == arity; }

    static boolean isTaggedTuple(Term t, int arity, Term tag) {
        return t instanceof ETuple tup && tup.arity() == arity && tup.get(0) == tag;
    }

    static int select(Instr in, Term v) {
        int t = ((SelectTable) in.o).lookup(v);
        return t >= 0 ? t : in.e;
    }

    static ECons consOrNull(Term t) { return t instanceof ECons c ? c : null; }

    static Term tupleElement(Term t, int i) { return ((ETuple) t).get(i); }

    static Term floatTerm(double d) { return new EFloat(d); }

    static int bitSyntax(Interpreter it, Instr in, int next) {
        int r = BitSyntax.execute(it, in, next);
        return r == BitSyntax.NEXT ? next : r;
    }

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
}
