package org.jbeam.interp;

/**
 * The interpreter loop's call into compiled code ({@code jit_enter}), with a type profile that is
 * megamorphic from the start (ADR 0032).
 *
 * <p>HotSpot's C2 compiles the call {@code f.run(it, pc)} from the receiver types the call site
 * has seen. The loop is compiled during boot, when no Erlang function is compiled yet (ADR 0029's
 * boot deferral), so the site had seen no type, or one or two: C2 then made the cast an
 * "unreached" trap or inlined one or two {@code run} methods behind a type guard, and the first
 * other compiled function made the whole loop deoptimise and compile again (60 kB of code, 1–2 s
 * of C2's single thread, measured with JFR {@code jdk.Deoptimization}: "bimorphic" and
 * "null_assert_or_unreached0" at this call). With the profile already holding three types C2
 * compiles a virtual call, which the loop makes anyway once a program has more than two hot
 * functions. The call stays in this small method: HotSpot inlines it and keeps its profile
 * (a profile belongs to the method whose bytecode it describes, not to the method it is
 * inlined into), so the pollution below is seen in every compile of the loop.
 */
final class JitEntry {
    private JitEntry() {}

    static int enter(Object f, Interpreter it, int pc) {
        return ((CompiledFunction) f).run(it, pc);
    }

    /** Three trivial functions, each called through {@link #enter} until the profile records them all. */
    private static final class A extends CompiledFunction {
        A() { super(new int[0]); }
        @Override public int run(Interpreter it, int pc) { return pc; }
    }
    private static final class B extends CompiledFunction {
        B() { super(new int[0]); }
        @Override public int run(Interpreter it, int pc) { return pc + 1; }
    }
    private static final class C extends CompiledFunction {
        C() { super(new int[0]); }
        @Override public int run(Interpreter it, int pc) { return pc + 2; }
    }

    /**
     * Enough calls for the interpreter to start profiling {@link #enter} and for its C1 tier
     * (which keeps profiling) to see the three types: a few milliseconds, once per JVM.
     */
    static {
        CompiledFunction[] fs = {new A(), new B(), new C()};
        int sink = 0;
        for (int i = 0; i < 30_000; i++) sink += enter(fs[i % 3], null, i);
        if (sink == 42) System.out.print("");
    }

    /** Runs the static initialiser (called when the first interpreter is made, before the loop runs). */
    static void init() {}
}
