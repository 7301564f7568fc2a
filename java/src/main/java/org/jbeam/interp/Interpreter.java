package org.jbeam.interp;

import static org.jbeam.loader.Opcodes.*;

import org.jbeam.bif.Bif;
import org.jbeam.bif.BifTable;
import org.jbeam.code.*;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.Runtime;
import org.jbeam.runtime.Signals;
import org.jbeam.term.*;

/**
 * The dispatch loop. One instance per scheduler thread; it owns the x and float registers.
 * {@link #run} executes a process until it exhausts its reductions (YIELDED), waits for a
 * message (WAITING) or exits (EXITED).
 */
public final class Interpreter {
    public static final int YIELDED = 0, WAITING = 1, EXITED = 2;
    public static final int MAX_X = 1024;

    final Runtime vm;
    final int schedulerId;
    final Term[] x = new Term[MAX_X + 8];
    final double[] fr = new double[MAX_X];

    // Current process and code (valid during run()).
    ErlProcess p;
    BeamModule mod;
    Instr[] code;
    Term[] consts;
    int reds;
    /** The running slice's budget: reductions done so far in it are {@code sliceReds - reds}. */
    private int sliceReds;
    /** Compiled functions running inside a compiled caller's Java frame (bounded: ADR 0029). */
    int jitNesting;
    /** Bit n set: a tail-call trampoline runs compiled functions at nesting n (ADR 0045). */
    long trampolines;
    /** A compiled function a fun tail call under a trampoline left for the trampoline to run (FunTail, ADR 0059). */
    CompiledFunction tailJit;
    /** pc after the call instruction of the native being called (for current_stacktrace). */
    int pcAtCall;
    /** Why the last bs_create_bin failed: {Segment, Type, Reason, Value} for error_info. */
    Term binFailCause;
    /** The last bs_create_bin failure is a system_limit (a segment size past erts' MAX_SMALL), not a badarg. */
    boolean binFailLimit;
    /** Target of the legacy bs_put_* instructions (set by bs_init2/bs_append). */
    BitWriter binWriter;
    /** The running process's Erlang stack, cached here while it runs (written back on suspend/exit). */
    Term[] stk;
    int sp;

    public Interpreter(Runtime vm, int schedulerId) { this.vm = vm; this.schedulerId = schedulerId; JitEntry.init(); Branches.init(); }

    /** The thread this interpreter belongs to, and a per-thread slot of org.jbeam.nif (its spare call context, ADR 0026). */
    public final Thread thread = Thread.currentThread();
    public Object nifSpare;

    /** The running process's reductions including this slice's (process_info(self(), reductions)). */
    public long reductionsSoFar() { return p.reductionsDone + Math.max(0, sliceReds - reds); }

    /** The module whose code is running (for natives that act on their caller's module, e.g. load_nif). */
    public BeamModule currentModule() { return mod; }

    /** The running process's current stack trace (called from its own BIFs). */
    public Term currentStacktrace() { return Exceptions.currentStacktrace(this); }
    /** {M, F, A} of the function making the current BIF call, or null. */
    public Term currentFunction() { return Exceptions.currentFunction(this); }

    /** Current scheduler's interpreter, for BIFs that need registers (rare). */
    public Term[] xRegisters() { return x; }

    public int run(ErlProcess proc, int reductions) {
        this.p = proc;
        this.reds = reductions;
        this.sliceReds = reductions;
        proc.interpreter = this;
        if (!Signals.drain(proc)) return exit(proc.exitReason);
        // resume_process, or a busy distribution connection that drained, wakes it.
        if (proc.distSuspended || proc.suspendedBy != null && proc.suspended()) { proc.interpreter = null; this.p = null; return WAITING; }
        setCode(proc.module);
        stk = proc.stk;
        sp = proc.sp;
        int pc = proc.pc;
        System.arraycopy(proc.xsave, 0, x, 0, proc.live);
        if (primeLeft > 0) prime();
        try {
            return loop(pc);
        } catch (Preempt pre) {
            return pre.outcome;
        } catch (Halted h) {
            return EXITED;
        } finally {
            proc.reductionsDone += reductions - reds;
            if (proc.stk != null) { proc.stk = stk; proc.sp = sp; }
            proc.interpreter = null;
            this.p = null;
            this.stk = null;
        }
    }

    /**
     * The scheduler found no work and is about to sleep: drop the terms its x registers still hold
     * from the processes it ran. Nothing else overwrites them while it sleeps, and a stale
     * register kept, for instance, a dead process's NIF resource reachable, so its destructor
     * waited for that scheduler's next process (differential nif_resource_life, ADR 0031).
     */
    public void idle() {
        java.util.Arrays.fill(x, null);
        binFailCause = null;
    }

    void setCode(BeamModule m) {
        mod = m;
        code = m.code;
        consts = m.consts;
    }

    // ---- operand access ----

    // Kept under HotSpot's MaxInlineSize (35 bytes) so they inline into the loop on any profile.
    Term get(int op) { return op < Instr.Y ? x[op] : getYK(op); }

    private Term getYK(int op) { return op < Instr.K ? getY(op) : consts[op & Instr.INDEX_MASK]; }

    private Term getY(int op) { return stk[sp + ~(op & Instr.INDEX_MASK)]; }

    void put(int op, Term v) {
        if (op < Instr.Y) x[op] = v;
        else stk[sp - 1 - (op & Instr.INDEX_MASK)] = v;
    }

    /** Save live x registers and the resume point; the process leaves the scheduler. */
    int suspend(int pc, int live, int outcome) {
        ErlProcess proc = p;
        if (proc.xsave.length < live) proc.xsave = new Term[Math.max(live, proc.xsave.length * 2)];
        System.arraycopy(x, 0, proc.xsave, 0, live);
        proc.live = live;
        proc.stk = stk;
        proc.sp = sp;
        proc.pc = pc;
        proc.module = mod;
        if (outcome == YIELDED && JitSupport.ENABLED) JitSupport.sample(mod, pc);
        return outcome;
    }

    int exit(Term reason) {
        p.stk = stk;
        p.sp = sp;
        vm.processes.exit(p, reason);
        return EXITED;
    }

    // ---- the loop ----

    /*
     * Extra calls of the loop in the first slices of a JVM (boot), so that C2 compiles the loop
     * through its normal entry during boot instead of on-stack replacement (ADR 0043). HotSpot
     * compiles a method normally once it has been called often enough (Tier4MinInvocationThreshold,
     * scaled up with the length of C2's queue) and the calls plus loop iterations pass
     * Tier4CompileThreshold; it compiles a running loop (OSR) once the iterations alone pass
     * Tier4BackEdgeThreshold. A boot runs few, long slices, so the loop always reached the
     * second first: a 1-3.6 s OSR compile (under load) at boot that no later slice used, then
     * the normal compile 1-2 s into the program, ahead of the program's own functions in C2's
     * single queue. loop(LEAVE) returns at once (its first test), a few ns per call; 64 calls per
     * slice over the first 256 slices.
     * -Djbeam.interp.prime=0 turns it off (for measuring).
     */
    static final int PRIME = Integer.getInteger("jbeam.interp.prime", 16384), PRIME_STEP = 64;
    /** Calls left (racy between schedulers, which costs at most a few calls more or less). */
    private static int primeLeft = PRIME;

    private void prime() {
        primeLeft -= PRIME_STEP;
        int sink = 0;
        for (int i = 0; i < PRIME_STEP; i++) sink += loop(LEAVE);
        if (sink == 42) System.out.print("");
    }

    /** Returned by {@link SlowOps#execute} (as the next pc) when the loop must return {@link #leaveOutcome}. */
    static final int LEAVE = Integer.MIN_VALUE;
    int leaveOutcome;

    // The hot instructions only: the loop must stay small so that C2 compiles it quickly and
    // inlines the operand accessors (see ADR 0002). Everything else is in SlowOps.
    private int loop(int pc) {
        final Term[] x = this.x;
        while (true) {
            // Every instruction that leaves the loop (a call whose slice ran out, a native that
            // suspended, a receive that waits) sets pc to LEAVE and leaves here: one exit test,
            // whose profile has seen both outcomes by the end of boot. A test after each such
            // instruction was "never taken" at some site until a program got there, and each
            // cost a deoptimisation and two more C2 compiles of the loop (ADR 0037).
            if (pc == LEAVE) return leaveOutcome;
            if (InterpProfile.ENABLED) InterpProfile.count(mod, pc);
            Instr in = code[pc++];
            try {
                switch (in.op) {
                    case Ops.MOVE_XX -> { pin(); x[in.d] = x[in.a]; }
                    case Ops.MOVE_XY -> { pin(); stk[sp - 1 - in.d] = x[in.a]; }
                    case Ops.MOVE_YX -> { pin(); x[in.d] = stk[sp - 1 - in.a]; }
                    case Ops.MOVE_KX -> { pin(); x[in.d] = in.t; }
                    case Ops.MOVE_XY_XX -> { pin(); stk[sp - 1 - in.d] = x[in.a]; x[in.c] = x[in.b]; pc++; }
                    case Ops.MOVE_XX_XX -> { pin(); x[in.d] = x[in.a]; x[in.c] = x[in.b]; pc++; }
                    case Ops.MOVE_XY_XX_CALL -> { pin();
                        stk[sp - 1 - in.d] = x[in.a]; x[in.c] = x[in.b];
                        push(in.ret);
                        pc = localCall(in, in.e, in.f);
                    }
                    case MOVE -> { pin(); put(in.d, get(in.a)); }
                    case CALL -> { pin(); push(in.ret); pc = localCall(in, in.b, in.a); }
                    case CALL_LAST -> { pin(); sp -= in.c; pc = localCall(in, in.b, in.a); }
                    case CALL_ONLY -> { pin(); pc = localCall(in, in.b, in.a); }
                    // A native that suspended (Trap.await) leaves the loop with LEAVE (see Traps.awaitAsync).
                    case CALL_EXT -> { pin(); pc = callExport((Export) in.o, in.a, in.ret, pc); }
                    case CALL_EXT_LAST -> { pin(); sp -= in.c; pc = callExport((Export) in.o, in.a, null, pc); }
                    case CALL_EXT_ONLY -> { pin(); pc = callExport((Export) in.o, in.a, null, pc); }
                    // c: the frame a tail call drops (0 for a body call; the loader sets ret null and c).
                    case CALL_FUN2 -> { pin(); Term f = get(in.b); sp -= in.c; pc = callFun(f, in.a, in.ret, pc); }
                    case CALL_FUN -> { pin(); sp -= in.c; pc = callFun(x[in.a], in.a, in.ret, pc); }
                    case RETURN -> { pin();
                        ReturnAddr ra = (ReturnAddr) stk[--sp];
                        stk[sp] = null;
                        if (ra.module != mod) setCode(ra.module);
                        pc = ra.pc;
                    }
                    // The fast paths are the bytecode tier's helpers, whose type tests have
                    // profiles of their own that Branches fills with every type: C2 compiles the
                    // loop during boot (ADR 0043), when an inline instanceof here had seen only
                    // small integers and was compiled as a class check that trapped at the first
                    // float or bignum operand.
                    case Ops.ADD -> { pin(); pc = fastOrBif(in, pc, SmallInts.add(get(in.a), get(in.b))); }
                    case Ops.SUB -> { pin(); pc = fastOrBif(in, pc, SmallInts.sub(get(in.a), get(in.b))); }
                    case Ops.ELEMENT -> { pin(); pc = fastOrBif(in, pc, JitSupport.element(get(in.a), get(in.b))); }
                    case BIF0, BIF1, BIF2, GC_BIF1, GC_BIF2, GC_BIF3 -> { pin(); pc = bifSlow(in, pc); }
                    case ALLOCATE, ALLOCATE_ZERO, ALLOCATE_HEAP, ALLOCATE_HEAP_ZERO -> { pin();
                        int top = sp, end = top + in.a;
                        Term[] s = stk = Branches.room(stk, end);
                        while (top < end) s[top++] = null;
                        sp = end;
                    }
                    case DEALLOCATE -> { pin(); sp -= in.a; }
                    case Ops.DEALLOCATE_RETURN -> { pin();
                        Term[] s = stk;
                        int top = sp - in.a - 1;
                        ReturnAddr ra = (ReturnAddr) s[top];
                        s[top] = null;
                        sp = top;
                        if (ra.module != mod) setCode(ra.module);
                        pc = ra.pc;
                    }
                    case TRIM -> { pin(); sp -= in.a; }
                    case INIT -> { pin(); put(in.d, ENil.NIL); }
                    // All term comparisons share one helper, so its type profile covers every
                    // comparison site and a rare non-integer operand does not deoptimise the loop.
                    case Ops.IS_LT_XK -> { pin(); pc = Branches.pick(less(x[in.a], in.t), pc, in.e); }
                    case Ops.IS_GE_XK -> { pin(); pc = Branches.pick(less(x[in.a], in.t), in.e, pc); }
                    case Ops.IS_LT_KX -> { pin(); pc = Branches.pick(less(in.t, x[in.b]), pc, in.e); }
                    case Ops.IS_GE_KX -> { pin(); pc = Branches.pick(less(in.t, x[in.b]), in.e, pc); }
                    case Ops.IS_LT_XX -> { pin(); pc = Branches.pick(less(x[in.a], x[in.b]), pc, in.e); }
                    case Ops.IS_GE_XX -> { pin(); pc = Branches.pick(less(x[in.a], x[in.b]), in.e, pc); }
                    case IS_LT -> { pin(); pc = Branches.pick(less(get(in.a), get(in.b)), pc, in.e); }
                    case IS_GE -> { pin(); pc = Branches.pick(less(get(in.a), get(in.b)), in.e, pc); }
                    case Ops.IS_EQ_EXACT_XA -> { pin(); pc = Branches.same(x[in.a], in.t, pc, in.e); }
                    case Ops.IS_NE_EXACT_XA -> { pin(); pc = Branches.same(x[in.a], in.t, in.e, pc); }
                    case IS_EQ_EXACT -> { pin(); pc = Branches.pick(Branches.equal(get(in.a), get(in.b)), pc, in.e); }
                    case IS_NE_EXACT -> { pin(); pc = Branches.pick(Branches.equal(get(in.a), get(in.b)), in.e, pc); }
                    case IS_INTEGER -> { pin(); pc = Branches.pick(EInteger.class.isInstance(get(in.a)), pc, in.e); }
                    case IS_ATOM -> { pin(); pc = Branches.pick(EAtom.class.isInstance(get(in.a)), pc, in.e); }
                    case IS_NIL -> { pin(); pc = Branches.same(get(in.a), ENil.NIL, pc, in.e); }
                    case IS_LIST -> { pin(); pc = Branches.pick(EList.class.isInstance(get(in.a)), pc, in.e); }
                    case Ops.IS_NONEMPTY_LIST_X -> { pin(); pc = Branches.pick(ECons.class.isInstance(x[in.a]), pc, in.e); }
                    case Ops.IS_NONEMPTY_LIST_GET -> { pin();
                        if (x[in.a] instanceof ECons c) { x[in.b] = c.head; x[in.c] = c.tail; pc++; }
                        else pc = in.e;
                    }
                    case IS_NONEMPTY_LIST -> { pin(); pc = Branches.pick(ECons.class.isInstance(get(in.a)), pc, in.e); }
                    case Ops.IS_TUPLE_ARITY -> { pin(); pc = Branches.arity(x[in.a], in.b, pc + 1, in.e); }
                    case IS_TUPLE -> { pin(); pc = Branches.pick(ETuple.class.isInstance(get(in.a)), pc, in.e); }
                    case TEST_ARITY -> { pin(); pc = Branches.arity(get(in.a), in.b, pc, in.e); }
                    case IS_TAGGED_TUPLE -> { pin(); pc = Branches.tagged(get(in.a), in.b, in.t, pc, in.e); }
                    case SELECT_VAL -> { pin(); pc = Branches.select(((SelectTable) in.o).lookup(get(in.a)), in.e); }
                    case JUMP -> { pin(); pc = in.a; }
                    case Ops.GET_LIST_XXX -> { pin(); ECons c = (ECons) x[in.a]; x[in.b] = c.head; x[in.c] = c.tail; }
                    case GET_LIST -> { pin(); ECons c = (ECons) get(in.a); put(in.b, c.head); put(in.c, c.tail); }
                    case GET_HD -> { pin(); put(in.d, ((ECons) get(in.a)).head); }
                    case GET_TL -> { pin(); put(in.d, ((ECons) get(in.a)).tail); }
                    case GET_TUPLE_ELEMENT -> { pin(); put(in.d, ((ETuple) get(in.a)).get(in.b)); }
                    case Ops.PUT_LIST_XXX -> { pin(); x[in.d] = new ECons(x[in.a], x[in.b]); }
                    case Ops.GET_TUPLE_ELEMENT_XX -> { pin(); x[in.d] = ((ETuple) x[in.a]).get(in.b); }
                    case Ops.TEST_ARITY_X -> { pin(); pc = Branches.arity(x[in.a], in.b, pc, in.e); }
                    case PUT_LIST -> { pin(); put(in.d, new ECons(get(in.a), get(in.b))); }
                    case PUT_TUPLE2 -> { pin(); putTuple(in); }
                    case Ops.FMOVE_RR -> { pin(); fr[in.d] = fr[in.a]; }
                    case Ops.FMOVE_RT -> { pin(); put(in.d, new EFloat(fr[in.a])); }
                    case Ops.FMOVE_TR -> { pin(); fr[in.d] = Floats.toDouble(get(in.a)); }
                    case FCONV -> { pin(); fr[in.d & Instr.INDEX_MASK] = Floats.toDouble(get(in.a)); }
                    case Ops.FADD_R -> { pin(); fr[in.d] = Floats.check(fr[in.a] + fr[in.b]); }
                    case Ops.FSUB_R -> { pin(); fr[in.d] = Floats.check(fr[in.a] - fr[in.b]); }
                    case Ops.FMUL_R -> { pin(); fr[in.d] = Floats.check(fr[in.a] * fr[in.b]); }
                    case Ops.FDIV_R -> { pin(); fr[in.d] = Floats.check(fr[in.a] / fr[in.b]); }
                    case BS_START_MATCH4, BS_GET_POSITION, BS_SET_POSITION, BS_GET_TAIL, BS_TEST_TAIL2, BS_TEST_UNIT,
                         BS_SKIP_BITS2, BS_GET_INTEGER2, BS_GET_BINARY2, BS_MATCH_STRING, BS_CREATE_BIN -> {
                        pc = Branches.orNext(BitSyntax.execute(this, in, pc), pc);
                    }
                    case Ops.JIT_ENTER -> {
                        pc = JitEntry.enter(in.o, this, pc - 1);
                    }
                    case LOOP_REC, LOOP_REC_END, REMOVE_MESSAGE, TIMEOUT, WAIT, WAIT_TIMEOUT, RECV_MARKER_RESERVE,
                         RECV_MARKER_BIND, RECV_MARKER_USE, RECV_MARKER_CLEAR, SEND, CATCH_END -> { pin(); pc = Receive.execute(this, in, pc); } // ADR 0047
                    case Ops.IS_EQ_EXACT_XI -> { pin(); pc = Branches.small(x[in.a], in.f, pc, in.e); }
                    case Ops.IS_NE_EXACT_XI -> { pin(); pc = Branches.small(x[in.a], in.f, in.e, pc); }
                    default -> {
                        pc = SlowOps.execute(this, in, pc);
                    }
                }
            } catch (ErlangException ex) {
                pc = Exceptions.handle(this, ex, pc - 1, in);
                if (pc < 0) return EXITED;
            } catch (ClassCastException | NullPointerException | IndexOutOfBoundsException bug) {
                pc = internalError(bug, in, pc);
                if (pc < 0) return EXITED;
            }
        }
    }

    /** A well-formed module never gets here (the compiler guarantees operand types): report it
     *  as an Erlang error with the Java cause in the message, keep the VM up. */
    private int internalError(RuntimeException bug, Instr in, int pc) {
        ErlangException ex = ErlangException.error(ETuple.of(EAtom.of("jbeam_internal_error"),
                EBitString.ofUtf8(bug + " at " + Ops.name(in.op) + " in " + mod.name.name)));
        vm.logInternal(bug);
        return Exceptions.handle(this, ex, pc - 1, in);
    }

    private static volatile int barrier;

    /** A compiler barrier at the top of each case: keeps C2 from hoisting the operand loads of all
     *  cases above the dispatch jump (where it would compute and spill them for every instruction). */
    static void pin() { int unused = barrier; }

    /** Term order {@code a < b} with the small-integer case inline. */
    static boolean less(Term a, Term b) {
        if (a instanceof ESmall s && b instanceof ESmall t) return s.value < t.value;
        if (a instanceof EFloat f && b instanceof EFloat g) return f.value < g.value; // finite, no NaN
        return TermOrder.compare(a, b) < 0;
    }

    /** A BIF instruction's general path: call the BIF, take the fail label or store the result. */
    int bifSlow(Instr in, int pc) {
        Term r = NativeCalls.guardBif(this, in);
        if (r == null) return in.e;
        put(in.d, r);
        return pc;
    }

    void putTuple(Instr in) {
        int[] srcs = (int[]) in.o;
        Term[] el = new Term[srcs.length];
        for (int i = 0; i < el.length; i++) el[i] = get(srcs[i]);
        put(in.d, new ETuple(el));
    }

    // ---- stack frames ----

    // As in OTP 24+, a call pushes its return address on the stack; allocate only adds y slots.

    void push(ReturnAddr ra) {
        if (sp == stk.length) growStack(1);
        stk[sp++] = ra;
    }

    /** A term slot of a frame the interpreter builds itself (call tracing's return-trace frame). */
    void pushTerm(Term t) {
        if (sp == stk.length) growStack(1);
        stk[sp++] = t;
    }

    void allocate(int n) {
        Term[] s = stk = Branches.room(stk, sp + n);
        int top = sp;
        for (int i = 0; i < n; i++) s[top + i] = null;
        sp = top + n;
    }

    private void growStack(int extra) {
        int n = stk.length * 2;
        while (n < sp + extra) n *= 2;
        stk = java.util.Arrays.copyOf(stk, n);
    }

    void deallocate(int n) { sp -= n; }

    /** A fast path's result {@code r} into the destination, or the general BIF when it gave none (null). */
    private int fastOrBif(Instr in, int pc, Term r) {
        switch (Branches.isNull(r)) { // a switch: no per-site profile to speculate on (ADR 0043)
            case 0 -> { put(in.d, r); return pc; }
            default -> { return bifSlow(in, pc); }
        }
    }

    int doReturn() {
        ReturnAddr ra = (ReturnAddr) stk[--sp];
        stk[sp] = null;
        if (ra.module != mod) setCode(ra.module);
        return ra.pc;
    }

    // ---- calls ----

    /**
     * Counts an interpreted local call. Message-passing loops wait instead of being preempted, so
     * preemption samples never see them; a call site reaching the threshold compiles its callee
     * (ADR 0008). Past the threshold the site stops counting.
     * <p>Every local call in the loop calls this unconditionally, with the test inside: HotSpot
     * keeps one branch profile per method, so the four inlined copies share one that has seen both
     * outcomes by the end of boot. A test in each case of the loop was "never false" until a call
     * site reached the threshold, and each then cost a deoptimisation and another C2 compile of the
     * whole loop (ADR 0024).
     */
    /** A local call to {@code target}: the target, or LEAVE (with the slice suspended there) when the reductions ran out. */
    private int localCall(Instr in, int target, int arity) {
        countLocalCall(in, mod, target);
        if (--reds > 0) return target;
        leaveOutcome = suspend(target, arity, YIELDED);
        return LEAVE;
    }

    static void countLocalCall(Instr in, BeamModule mod, int target) {
        if (Branches.counted(in) && JitSupport.ENABLED) JitSupport.hotCall(in, mod, target);
    }

    /** A traced native's {M, F, Arity} when its pattern asked for return_trace (CallTracing.enter): it runs in place, with no frame to return through. */
    ETuple nativeReturnTrace;
    /** The function a traced native called with return_to returns to (CallTracing.enter): return_to names it after the call. */
    Term nativeReturnTo;

    /** Call through an export; {@code ret} null means a tail call. Returns the next pc. */
    int callExport(Export e, int arity, ReturnAddr ret, int pc) {
        ETuple returnTrace = null;
        Term returnTo = null;
        if (e.callTrace != null) {
            ret = CallTracing.enter(this, e, arity, ret, pc);
            returnTrace = nativeReturnTrace;
            nativeReturnTrace = null;
            returnTo = nativeReturnTo;
            nativeReturnTo = null;
        }
        BifTable.Entry b = e.bif;
        if (b != null) {
            pcAtCall = pc;
            Term r = NativeCalls.invoke(this, b, arity);
            if (r instanceof Trap t) return Traps.run(this, t, ret, pc);
            if (returnTrace != null) org.jbeam.trace.Tracing.returned(p, returnTrace, r);
            if (returnTo != null) CallTracing.nativeReturnedTo(this, returnTo);
            x[0] = r;
            return ret != null ? pc : doReturn();
        }
        BeamModule m = e.module;
        if (m == null) {
            // jbeam autoloads where erts' default error_handler would ask the code server; a
            // process with its own error handler leaves that to the handler, as in erts.
            if (p.errorHandler == ErlProcess.DEFAULT_ERROR_HANDLER) vm.code.autoload(e);
            m = e.module;
            if (m == null) {
                if (e.bif != null) return callExport(e, arity, ret, pc);
                Export handler = vm.code.errorHandler(p, e);
                if (handler == null) throw Exceptions.undef(e.m, e.f, args(arity), ret == null);
                // OTP's own path: error_handler:undefined_function(M, F, Args) asks the code server
                // (which also runs -on_load functions) and raises undef if it cannot help.
                Term argList = ECons.of(args(arity));
                x[0] = e.m;
                x[1] = e.f;
                x[2] = argList;
                return callExport(handler, 3, ret, pc);
            }
        }
        Instr body = m.code[e.pc];
        if (body.op == Ops.CALL_NATIVE && body.c == Ops.NATIVE_NIF) return NativeCalls.callNif(this, body, arity, ret, pc);
        if (ret != null) push(ret);
        setCode(m);
        // Message-passing code is seldom preempted (it waits first), so calls across modules
        // also count towards compiling the callee (ADR 0008).
        if (++e.calls == JitSupport.CALL_THRESHOLD && JitSupport.ENABLED && !JitSupport.hot(m, e.pc)) e.calls = 0;
        if (--reds <= 0) return preemptAt(e.pc, arity);
        return e.pc;
    }

    /** Leave the loop now; the process resumes at {@code pc} with {@code arity} live x registers. */
    int preemptAt(int pc, int arity) {
        reds = 0;
        throw new Preempt(suspend(pc, arity, YIELDED));
    }

    Term[] args(int arity) {
        Term[] a = new Term[arity];
        System.arraycopy(x, 0, a, 0, arity);
        return a;
    }

    int callFun(Term f, int arity, ReturnAddr ret, int pc) {
        // The common case, small enough for HotSpot to inline into compiled callers (ADR 0045): a
        // closure of a loaded function with the right arity and reductions left.
        if (f instanceof ELocalFun lf && lf.entry instanceof FunEntry fe && lf.arity == arity && reds > 1
                && fe.calls >= JitSupport.CALL_THRESHOLD) {
            Term[] free = lf.freeVars;
            if (free.length != 0) System.arraycopy(free, 0, x, arity, free.length);
            if (ret != null) push(ret);
            if (fe.module != mod) setCode(fe.module);
            reds--;
            return fe.pc;
        }
        return callFunSlow(f, arity, ret, pc);
    }

    private int callFunSlow(Term f, int arity, ReturnAddr ret, int pc) {
        if (!(f instanceof EFun fun) || fun.arity() != arity) {
            // As in BEAM, the return address is already on the stack when the call fails.
            if (ret != null) push(ret);
            if (f instanceof EFun) throw ErlangException.error(ETuple.of(EAtom.BADARITY, ETuple.of(f, ECons.of(args(arity)))));
            throw ErlangException.error(ETuple.of(EAtom.BADFUN, f));
        }
        if (f instanceof ELocalFun lf) {
            FunEntry fe = (FunEntry) lf.entry;
            if (fe == null) fe = vm.code.resolveFun(lf);
            if (fe == null) throw Exceptions.undef(lf.module, lf.function, args(arity), ret == null);
            System.arraycopy(lf.freeVars, 0, x, arity, lf.freeVars.length);
            if (ret != null) push(ret);
            setCode(fe.module);
            if (fe.calls < JitSupport.CALL_THRESHOLD && ++fe.calls == JitSupport.CALL_THRESHOLD && JitSupport.ENABLED && !JitSupport.hot(fe.module, fe.pc)) fe.calls = 0;
            int target = fe.traceEntry != 0 ? fe.traceEntry : fe.pc; // a traced function: through its trace_entry
            if (--reds <= 0) return preemptAt(target, arity + lf.freeVars.length);
            return target;
        }
        if (f instanceof EExportFun ef) {
            Export e = (Export) ef.export;
            if (e == null) { e = vm.exports.get(ef.module, ef.function, ef.arity); ef.export = e; }
            return callExport(e, arity, ret, pc);
        }
        throw ErlangException.error(ETuple.of(EAtom.BADFUN, f));
    }

    int apply(int arity, ReturnAddr ret, int pc) {
        Term m = x[arity], f = x[arity + 1];
        if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa)) throw ErlangException.badarg();
        return callExport(vm.exports.get(ma, fa, arity), arity, ret, pc);
    }

    Term makeFun(FunEntry fe, Term[] free) {
        return new ELocalFun(fe.module.name, fe.function, fe.totalArity - fe.numFree, fe.index, fe.oldUniq,
                fe.module, free, p.pid, fe);
    }

    static boolean isFunction2(Term f, Term a) {
        if (!(a instanceof ESmall s) || s.value < 0) throw ErlangException.badarg();
        return f instanceof EFun fun && fun.arity() == s.value;
    }

    ErlangException functionClause(Instr in) {
        FuncInfo fi = (FuncInfo) in.o;
        ErlangException ex = ErlangException.error(EAtom.FUNCTION_CLAUSE);
        ex.frameModule = mod.name;
        ex.frameFunction = fi.name;
        ex.frameArgs = ECons.of(args(fi.arity));
        ex.errorInfo = null;
        return ex;
    }

    // ---- floats ----

    double fr(int op) {
        if ((op & Instr.KIND_MASK) == Instr.FR) return fr[op & Instr.INDEX_MASK];
        return Floats.toDouble(get(op));
    }

    void fmove(Instr in) {
        boolean srcFr = (in.a & Instr.KIND_MASK) == Instr.FR, dstFr = (in.d & Instr.KIND_MASK) == Instr.FR;
        if (dstFr) fr[in.d & Instr.INDEX_MASK] = srcFr ? fr[in.a & Instr.INDEX_MASK] : Floats.toDouble(get(in.a));
        else put(in.d, EFloat.of(fr[in.a & Instr.INDEX_MASK]));
    }

    /**
     * For a BIF whose own signal ended its process (exit(self(), R) when not trapping exits, or
     * kill): exits it now and returns what to throw. It is not an Erlang exception, so no catch or
     * try in the process sees it, as with erts, where the process is gone before the next instruction.
     */
    public static RuntimeException exitNow(ErlProcess proc) {
        return new Preempt(proc.interpreter.exit(proc.exitReason));
    }

    /** Thrown to leave the loop after a preemption inside a call helper. */
    static final class Preempt extends RuntimeException {
        final int outcome;
        Preempt(int outcome) { super(null, null, false, false); this.outcome = outcome; }
    }
}
