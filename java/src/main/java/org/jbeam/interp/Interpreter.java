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
    /** pc after the call instruction of the native being called (for current_stacktrace). */
    int pcAtCall;
    /** Why the last bs_create_bin failed: {Segment, Type, Reason, Value} for error_info. */
    Term binFailCause;
    /** Target of the legacy bs_put_* instructions (set by bs_init2/bs_append). */
    BitWriter binWriter;
    /** The running process's Erlang stack, cached here while it runs (written back on suspend/exit). */
    Term[] stk;
    int sp;

    public Interpreter(Runtime vm, int schedulerId) { this.vm = vm; this.schedulerId = schedulerId; }

    /** The module whose code is running (for natives that act on their caller's module, e.g. load_nif). */
    public BeamModule currentModule() { return mod; }

    /** The running process's current stack trace (called from its own BIFs). */
    public Term currentStacktrace() { return Exceptions.currentStacktrace(this); }

    /** Current scheduler's interpreter, for BIFs that need registers (rare). */
    public Term[] xRegisters() { return x; }

    public int run(ErlProcess proc, int reductions) {
        this.p = proc;
        this.reds = reductions;
        proc.interpreter = this;
        if (!Signals.drain(proc)) return exit(proc.exitReason);
        setCode(proc.module);
        stk = proc.stk;
        sp = proc.sp;
        int pc = proc.pc;
        System.arraycopy(proc.xsave, 0, x, 0, proc.live);
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

    void setCode(BeamModule m) {
        mod = m;
        code = m.code;
        consts = m.consts;
    }

    // ---- operand access ----

    Term get(int op) {
        if (op < Instr.Y) return x[op];
        if (op < Instr.K) return stk[sp - 1 - (op & Instr.INDEX_MASK)];
        return consts[op & Instr.INDEX_MASK];
    }

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
        return outcome;
    }

    int exit(Term reason) {
        p.stk = stk;
        p.sp = sp;
        vm.processes.exit(p, reason);
        return EXITED;
    }

    // ---- the loop ----

    private int loop(int pc) {
        while (true) {
            Instr in = code[pc++];
            try {
                switch (in.op) {
                    case MOVE -> put(in.d, get(in.a));
                    case CALL -> {
                        push(in.ret);
                        if (--reds <= 0) return suspend(in.b, in.a, YIELDED);
                        pc = in.b;
                    }
                    case CALL_LAST -> {
                        deallocate(in.c);
                        if (--reds <= 0) return suspend(in.b, in.a, YIELDED);
                        pc = in.b;
                    }
                    case CALL_ONLY -> {
                        if (--reds <= 0) return suspend(in.b, in.a, YIELDED);
                        pc = in.b;
                    }
                    case CALL_EXT -> pc = callExport((Export) in.o, in.a, in.ret, pc);
                    case CALL_EXT_LAST -> { deallocate(in.c); pc = callExport((Export) in.o, in.a, null, pc); }
                    case CALL_EXT_ONLY -> pc = callExport((Export) in.o, in.a, null, pc);
                    case Ops.CALL_NATIVE -> {
                        BifTable.Entry e = (BifTable.Entry) in.o;
                        Term r = invokeNative(e, in.a);
                        if (r instanceof Trap t) pc = trap(t, null, pc);
                        else { x[0] = r; pc = doReturn(); }
                    }
                    case RETURN -> pc = doReturn();
                    case BIF0, BIF1, BIF2, GC_BIF1, GC_BIF2, GC_BIF3 -> {
                        Term r = guardBif(in);
                        if (r == null) pc = in.e;
                        else put(in.d, r);
                    }
                    case Ops.ADD -> {
                        Term a = get(in.a), b = get(in.b);
                        if (a instanceof ESmall x && b instanceof ESmall y) {
                            long r = x.value + y.value;
                            if (((x.value ^ r) & (y.value ^ r)) >= 0) { put(in.d, ESmall.of(r)); break; }
                        }
                        Term r = guardBif(in);
                        if (r == null) pc = in.e; else put(in.d, r);
                    }
                    case Ops.SUB -> {
                        Term a = get(in.a), b = get(in.b);
                        if (a instanceof ESmall x && b instanceof ESmall y) {
                            long r = x.value - y.value;
                            if (((x.value ^ y.value) & (x.value ^ r)) >= 0) { put(in.d, ESmall.of(r)); break; }
                        }
                        Term r = guardBif(in);
                        if (r == null) pc = in.e; else put(in.d, r);
                    }
                    case Ops.MUL -> {
                        Term a = get(in.a), b = get(in.b);
                        if (a instanceof ESmall x && b instanceof ESmall y) {
                            long hi = Math.multiplyHigh(x.value, y.value), lo = x.value * y.value;
                            if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) { put(in.d, ESmall.of(lo)); break; }
                        }
                        Term r = guardBif(in);
                        if (r == null) pc = in.e; else put(in.d, r);
                    }
                    case Ops.ELEMENT -> {
                        if (get(in.a) instanceof ESmall i && get(in.b) instanceof ETuple t && i.value >= 1 && i.value <= t.arity()) {
                            put(in.d, t.get((int) i.value - 1));
                            break;
                        }
                        Term r = guardBif(in);
                        if (r == null) pc = in.e; else put(in.d, r);
                    }
                    case ALLOCATE, ALLOCATE_ZERO, ALLOCATE_HEAP, ALLOCATE_HEAP_ZERO -> allocate(in.a);
                    case DEALLOCATE -> deallocate(in.a);
                    case TRIM -> sp -= in.a;
                    case INIT -> put(in.d, ENil.NIL);
                    case INIT_YREGS -> { for (int r : (int[]) in.o) put(r, ENil.NIL); }
                    case IS_LT -> {
                        Term a = get(in.a), b = get(in.b);
                        if (a instanceof ESmall x && b instanceof ESmall y ? x.value >= y.value : TermOrder.compare(a, b) >= 0) pc = in.e;
                    }
                    case IS_GE -> {
                        Term a = get(in.a), b = get(in.b);
                        if (a instanceof ESmall x && b instanceof ESmall y ? x.value < y.value : TermOrder.compare(a, b) < 0) pc = in.e;
                    }
                    case IS_EQ -> { if (!TermOrder.eq(get(in.a), get(in.b))) pc = in.e; }
                    case IS_NE -> { if (TermOrder.eq(get(in.a), get(in.b))) pc = in.e; }
                    case IS_EQ_EXACT -> { if (!get(in.a).equals(get(in.b))) pc = in.e; }
                    case IS_NE_EXACT -> { if (get(in.a).equals(get(in.b))) pc = in.e; }
                    case IS_INTEGER -> { if (!(get(in.a) instanceof EInteger)) pc = in.e; }
                    case IS_FLOAT -> { if (!(get(in.a) instanceof EFloat)) pc = in.e; }
                    case IS_NUMBER -> { if (!(get(in.a) instanceof ENumber)) pc = in.e; }
                    case IS_ATOM -> { if (!(get(in.a) instanceof EAtom)) pc = in.e; }
                    case IS_PID -> { if (!(get(in.a) instanceof EPid)) pc = in.e; }
                    case IS_REFERENCE -> { if (!(get(in.a) instanceof ERef)) pc = in.e; }
                    case IS_PORT -> { if (!(get(in.a) instanceof EPort)) pc = in.e; }
                    case IS_NIL -> { if (get(in.a) != ENil.NIL) pc = in.e; }
                    case IS_BINARY -> { if (!(get(in.a) instanceof EBitString b) || !b.isBinaryAligned()) pc = in.e; }
                    case IS_BITSTR -> { if (!(get(in.a) instanceof EBitString)) pc = in.e; }
                    case IS_LIST -> { if (!(get(in.a) instanceof EList)) pc = in.e; }
                    case IS_NONEMPTY_LIST -> { if (!(get(in.a) instanceof ECons)) pc = in.e; }
                    case IS_TUPLE -> { if (!(get(in.a) instanceof ETuple)) pc = in.e; }
                    case IS_MAP -> { if (!(get(in.a) instanceof EMap)) pc = in.e; }
                    case IS_FUNCTION -> { if (!(get(in.a) instanceof EFun)) pc = in.e; }
                    case IS_FUNCTION2 -> { if (!isFunction2(get(in.a), get(in.b))) pc = in.e; }
                    case IS_BOOLEAN -> { Term t = get(in.a); if (t != EAtom.TRUE && t != EAtom.FALSE) pc = in.e; }
                    case TEST_ARITY -> { if (!(get(in.a) instanceof ETuple t) || t.arity() != in.b) pc = in.e; }
                    case IS_TAGGED_TUPLE -> {
                        if (!(get(in.a) instanceof ETuple t) || t.arity() != in.b || t.get(0) != in.t) pc = in.e;
                    }
                    case SELECT_VAL -> {
                        int t = ((SelectTable) in.o).lookup(get(in.a));
                        pc = t >= 0 ? t : in.e;
                    }
                    case SELECT_TUPLE_ARITY -> {
                        Term v = get(in.a);
                        int t = v instanceof ETuple tu ? ((SelectTable) in.o).lookupArity(tu.arity()) : -1;
                        pc = t >= 0 ? t : in.e;
                    }
                    case JUMP -> pc = in.a;
                    case GET_LIST -> { ECons c = (ECons) get(in.a); put(in.b, c.head); put(in.c, c.tail); }
                    case GET_HD -> put(in.d, ((ECons) get(in.a)).head);
                    case GET_TL -> put(in.d, ((ECons) get(in.a)).tail);
                    case GET_TUPLE_ELEMENT -> put(in.d, ((ETuple) get(in.a)).get(in.b));
                    case SET_TUPLE_ELEMENT -> put(in.b, ((ETuple) get(in.b)).with(in.c, get(in.a)));
                    case PUT_LIST -> put(in.d, new ECons(get(in.a), get(in.b)));
                    case PUT_TUPLE2 -> {
                        int[] srcs = (int[]) in.o;
                        Term[] el = new Term[srcs.length];
                        for (int i = 0; i < el.length; i++) el[i] = get(srcs[i]);
                        put(in.d, new ETuple(el));
                    }
                    case SWAP -> { Term t = get(in.a); put(in.a, get(in.b)); put(in.b, t); }
                    case BADMATCH -> throw ErlangException.error(ETuple.of(EAtom.BADMATCH, get(in.a)));
                    case CASE_END -> throw ErlangException.error(ETuple.of(EAtom.CASE_CLAUSE, get(in.a)));
                    case TRY_CASE_END -> throw ErlangException.error(ETuple.of(EAtom.TRY_CLAUSE, get(in.a)));
                    case BADRECORD -> throw ErlangException.error(ETuple.of(EAtom.BADRECORD, get(in.a)));
                    case IF_END -> throw ErlangException.error(EAtom.IF_CLAUSE);
                    case FUNC_INFO -> throw functionClause(in);
                    case CATCH, TRY -> {
                        put(in.d, new CatchTag(mod, in.a, in.d & Instr.INDEX_MASK));
                        p.catches++;
                    }
                    case CATCH_END -> { put(in.d, ENil.NIL); p.catches--; Exceptions.catchEnd(this); }
                    case TRY_END -> { put(in.d, ENil.NIL); p.catches--; }
                    case TRY_CASE -> { put(in.d, ENil.NIL); p.catches--; Exceptions.tryCase(this); }
                    case RAISE -> Exceptions.raise(get(in.a), get(in.b));
                    case RAW_RAISE -> Exceptions.rawRaise(x[0], x[1], x[2]);
                    case BUILD_STACKTRACE -> x[0] = Exceptions.buildStacktrace(x[0]);
                    case CALL_FUN -> pc = callFun(x[in.a], in.a, in.ret, pc);
                    case CALL_FUN2 -> pc = callFun(get(in.b), in.a, in.ret, pc);
                    case APPLY -> pc = apply(in.a, in.ret, pc);
                    case APPLY_LAST -> { deallocate(in.c); pc = apply(in.a, null, pc); }
                    case MAKE_FUN2 -> {
                        FunEntry fe = mod.funs[in.b];
                        Term[] free = new Term[fe.numFree];
                        System.arraycopy(x, 0, free, 0, free.length);
                        x[0] = makeFun(fe, free);
                    }
                    case MAKE_FUN3 -> {
                        int[] srcs = (int[]) in.o;
                        Term[] free = new Term[srcs.length];
                        for (int i = 0; i < free.length; i++) free[i] = get(srcs[i]);
                        put(in.d, makeFun(mod.funs[in.b], free));
                    }
                    case SEND -> { Messaging.send(this, x[0], x[1]); x[0] = x[1]; if (--reds <= 0) return suspend(pc, 1, YIELDED); }
                    case LOOP_REC -> {
                        Term m = Messaging.peek(this);
                        if (m == null) {
                            if (p.exitReason != null) return exit(p.exitReason);
                            pc = in.a;
                        } else put(in.d, m);
                    }
                    case LOOP_REC_END -> {
                        p.mailbox.advance();
                        if (--reds <= 0) return suspend(in.a, 0, YIELDED);
                        pc = in.a;
                    }
                    case REMOVE_MESSAGE -> Messaging.removeMessage(this);
                    case TIMEOUT -> Messaging.timeout(this);
                    case WAIT -> { return suspend(in.a, 0, WAITING); }
                    case WAIT_TIMEOUT -> {
                        int r = Messaging.waitTimeout(this, in.b);
                        if (r == Messaging.WAIT) return suspend(in.a, 0, WAITING);
                        if (r == Messaging.RETRY) pc = in.a;
                        // else: timed out, fall through to the timeout instruction
                    }
                    case RECV_MARKER_RESERVE -> put(in.d, Messaging.reserveMarker(this));
                    case RECV_MARKER_BIND -> Messaging.bindMarker(this, get(in.a), get(in.b));
                    case RECV_MARKER_USE -> Messaging.useMarker(this, get(in.a));
                    case RECV_MARKER_CLEAR -> Messaging.clearMarker(this, get(in.a));
                    case FMOVE -> fmove(in);
                    case FCONV -> fr[in.d & Instr.INDEX_MASK] = Floats.toDouble(get(in.a));
                    case FADD -> fr[in.d & Instr.INDEX_MASK] = Floats.check(fr(in.a) + fr(in.b));
                    case FSUB -> fr[in.d & Instr.INDEX_MASK] = Floats.check(fr(in.a) - fr(in.b));
                    case FMUL -> fr[in.d & Instr.INDEX_MASK] = Floats.check(fr(in.a) * fr(in.b));
                    case FDIV -> fr[in.d & Instr.INDEX_MASK] = Floats.check(fr(in.a) / fr(in.b));
                    case FNEGATE -> fr[in.d & Instr.INDEX_MASK] = -fr(in.a);
                    case PUT_MAP_ASSOC -> put(in.d, Maps.putAssoc(this, get(in.a), (int[]) in.o));
                    case PUT_MAP_EXACT -> put(in.d, Maps.putExact(this, get(in.a), (int[]) in.o));
                    case HAS_MAP_FIELDS -> { if (!Maps.hasFields(this, get(in.a), (int[]) in.o)) pc = in.e; }
                    case GET_MAP_ELEMENTS -> { if (!Maps.getElements(this, get(in.a), (int[]) in.o)) pc = in.e; }
                    case ON_LOAD -> {}
                    case Ops.NORMAL_EXIT -> { return exit(EAtom.NORMAL); }
                    case Ops.APPLY_TRAMPOLINE -> {
                        if (p.startFun != null) { EFun f = p.startFun; p.startFun = null; pc = callFun(f, 0, null, pc); }
                        else { Export e = p.startExport; p.startExport = null; pc = callExport(e, e.arity, null, pc); }
                    }
                    case INT_CODE_END -> throw new IllegalStateException("fell off the end of " + mod.name.name);
                    default -> {
                        int r = BitSyntax.execute(this, in, pc);
                        if (r != BitSyntax.NEXT) pc = r;
                    }
                }
            } catch (ErlangException ex) {
                pc = Exceptions.handle(this, ex, pc - 1, in);
                if (pc < 0) return EXITED;
            } catch (ClassCastException | NullPointerException | IndexOutOfBoundsException bug) {
                // A well-formed module never gets here (the compiler guarantees operand types);
                // report it as an Erlang error with the Java cause in the message, keep the VM up.
                ErlangException ex = ErlangException.error(ETuple.of(EAtom.of("jbeam_internal_error"),
                        EBitString.ofUtf8(bug + " at " + Ops.name(in.op) + " in " + mod.name.name)));
                vm.logInternal(bug);
                pc = Exceptions.handle(this, ex, pc - 1, in);
                if (pc < 0) return EXITED;
            }
        }
    }

    // ---- stack frames ----

    // As in OTP 24+, a call pushes its return address on the stack; allocate only adds y slots.

    void push(ReturnAddr ra) {
        if (sp == stk.length) growStack(1);
        stk[sp++] = ra;
    }

    void allocate(int n) {
        if (sp + n > stk.length) growStack(n);
        Term[] s = stk;
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

    int doReturn() {
        ReturnAddr ra = (ReturnAddr) stk[--sp];
        stk[sp] = null;
        if (ra.module != mod) setCode(ra.module);
        return ra.pc;
    }

    // ---- calls ----

    /** Call through an export; {@code ret} null means a tail call. Returns the next pc. */
    int callExport(Export e, int arity, ReturnAddr ret, int pc) {
        BifTable.Entry b = e.bif;
        if (b != null) {
            pcAtCall = pc;
            Term r = invokeNative(b, arity);
            if (r instanceof Trap t) return trap(t, ret, pc);
            x[0] = r;
            return ret != null ? pc : doReturn();
        }
        BeamModule m = e.module;
        if (m == null) {
            vm.code.autoload(e);
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
        if (ret != null) push(ret);
        setCode(m);
        if (--reds <= 0) return preemptAt(e.pc, arity);
        return e.pc;
    }

    /** Leave the loop now; the process resumes at {@code pc} with {@code arity} live x registers. */
    private int preemptAt(int pc, int arity) {
        reds = 0;
        throw new Preempt(suspend(pc, arity, YIELDED));
    }

    Term[] args(int arity) {
        Term[] a = new Term[arity];
        System.arraycopy(x, 0, a, 0, arity);
        return a;
    }

    /** Calls a native function with x0..x(arity-1); on failure records the frame for the stack trace. */
    Term invokeNative(BifTable.Entry e, int arity) {
        try {
            // Dispatch on the declared arity (a cheap int switch) rather than on the lambda's type.
            Bif fn = e.fn();
            switch (e.arity()) {
                case 0: if (fn instanceof Bif.F0 f) return f.apply(p); break;
                case 1: if (fn instanceof Bif.F1 f) return f.apply(p, x[0]); break;
                case 2: if (fn instanceof Bif.F2 f) return f.apply(p, x[0], x[1]); break;
                case 3: if (fn instanceof Bif.F3 f) return f.apply(p, x[0], x[1], x[2]); break;
                default: break;
            }
            return ((Bif.N) fn).apply(p, args(arity));
        } catch (ErlangException ex) {
            if (ex.frameModule == null && ex.stacktrace == null && !ex.noNativeFrame) {
                ex.frameModule = e.module(); ex.frameFunction = e.name(); ex.frameArgs = ECons.of(args(arity));
            }
            throw ex;
        }
    }

    /** bif0/1/2 and gc_bif1/2/3: returns the result, or null to take the fail label. */
    private Term guardBif(Instr in) {
        Export e = (Export) in.o;
        BifTable.Entry b = e.bif;
        Term a = null, bb = null, c = null;
        try {
            if (b == null) {
                vm.code.autoload(e);
                b = e.bif;
                if (b == null) throw Exceptions.undef(e.m, e.f, new Term[0], false);
            }
            switch (e.arity) {
                case 0: return ((Bif.F0) b.fn()).apply(p);
                case 1: a = get(in.a); return ((Bif.F1) b.fn()).apply(p, a);
                case 2: a = get(in.a); bb = get(in.b); return ((Bif.F2) b.fn()).apply(p, a, bb);
                default: a = get(in.a); bb = get(in.b); c = get(in.c); return ((Bif.F3) b.fn()).apply(p, a, bb, c);
            }
        } catch (ErlangException ex) {
            if (in.e != 0) return null;
            if (ex.frameModule == null && ex.stacktrace == null && !ex.noNativeFrame) {
                Term[] args = switch (e.arity) { case 0 -> new Term[0]; case 1 -> new Term[] {a}; case 2 -> new Term[] {a, bb}; default -> new Term[] {a, bb, c}; };
                ex.frameModule = e.m; ex.frameFunction = e.f; ex.frameArgs = ECons.of(args);
            }
            throw ex;
        }
    }

    /** A BIF asked the interpreter to call something in its place (apply, yield). */
    int trap(Trap t, ReturnAddr ret, int pc) {
        if (t == Trap.YIELD) {
            x[0] = EAtom.TRUE;
            int next = ret != null ? pc : doReturn();
            return preemptAt(next, 1);
        }
        Term[] args = t.args;
        System.arraycopy(args, 0, x, 0, args.length);
        if (t.hibernate) {
            ErlProcess proc = p;
            for (int i = 1; i < sp; i++) stk[i] = null;
            sp = 1; // only the exit address stays
            proc.catches = 0;
            proc.startExport = t.export;
            setCode(org.jbeam.runtime.ProcessTable.SYSTEM);
            Signals.drain(proc);
            if (proc.mailbox.current() != null || proc.exitReason != null) return org.jbeam.runtime.ProcessTable.PC_START;
            throw new Preempt(suspend(org.jbeam.runtime.ProcessTable.PC_START, args.length, WAITING));
        }
        if (t.export != null) return callExport(t.export, args.length, ret, pc);
        x[args.length] = t.fun;
        return callFun(t.fun, args.length, ret, pc);
    }

    int callFun(Term f, int arity, ReturnAddr ret, int pc) {
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
            if (--reds <= 0) return preemptAt(fe.pc, arity + lf.freeVars.length);
            return fe.pc;
        }
        if (f instanceof EExportFun ef) {
            Export e = (Export) ef.export;
            if (e == null) { e = vm.exports.get(ef.module, ef.function, ef.arity); ef.export = e; }
            return callExport(e, arity, ret, pc);
        }
        throw ErlangException.error(ETuple.of(EAtom.BADFUN, f));
    }

    private int apply(int arity, ReturnAddr ret, int pc) {
        Term m = x[arity], f = x[arity + 1];
        if (!(m instanceof EAtom ma) || !(f instanceof EAtom fa)) throw ErlangException.badarg();
        return callExport(vm.exports.get(ma, fa, arity), arity, ret, pc);
    }

    Term makeFun(FunEntry fe, Term[] free) {
        return new ELocalFun(fe.module.name, fe.function, fe.totalArity - fe.numFree, fe.index, fe.oldUniq,
                fe.module.md5, free, p.pid, fe);
    }

    private static boolean isFunction2(Term f, Term a) {
        if (!(a instanceof ESmall s) || s.value < 0) throw ErlangException.badarg();
        return f instanceof EFun fun && fun.arity() == s.value;
    }

    private ErlangException functionClause(Instr in) {
        FuncInfo fi = (FuncInfo) in.o;
        ErlangException ex = ErlangException.error(EAtom.FUNCTION_CLAUSE);
        ex.frameModule = mod.name;
        ex.frameFunction = fi.name;
        ex.frameArgs = ECons.of(args(fi.arity));
        ex.errorInfo = null;
        return ex;
    }

    // ---- floats ----

    private double fr(int op) {
        if ((op & Instr.KIND_MASK) == Instr.FR) return fr[op & Instr.INDEX_MASK];
        return Floats.toDouble(get(op));
    }

    private void fmove(Instr in) {
        boolean srcFr = (in.a & Instr.KIND_MASK) == Instr.FR, dstFr = (in.d & Instr.KIND_MASK) == Instr.FR;
        if (dstFr) fr[in.d & Instr.INDEX_MASK] = srcFr ? fr[in.a & Instr.INDEX_MASK] : Floats.toDouble(get(in.a));
        else put(in.d, EFloat.of(fr[in.a & Instr.INDEX_MASK]));
    }

    /** Thrown to leave the loop after a preemption inside a call helper. */
    static final class Preempt extends RuntimeException {
        final int outcome;
        Preempt(int outcome) { super(null, null, false, false); this.outcome = outcome; }
    }
}
