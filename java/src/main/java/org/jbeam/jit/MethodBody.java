package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.jit.JitCompiler.*;
import static org.jbeam.loader.Opcodes.*;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import org.jbeam.code.*;
import org.jbeam.interp.CompiledFunction;
import org.jbeam.interp.JitSupport;

/**
 * The bytecode of one {@code run} method of a compiled function (the whole function, or one chunk
 * of a split one): a dispatch switch on the pc, then one block per instruction. {@link JitCompiler}
 * lays out the class and decides the chunks; the instruction families with their own emitters
 * ({@link BitCode}, {@link FloatCode}, {@link ReceiveCode}, {@link DirectCall}) work on this.
 */
final class MethodBody {
    // Local slots.
    static final int IT = 1, PC = 2, X = 3, CUR = 4, T1 = 5, T2 = 6, FR = 7, EX = 8;
    final CodeBuilder c;
    final FuncInfo f;
    final Instr[] code;
    final Label[] labels;
    final Label dispatch, leave;
    final Emit e;
    final ClassData data;
    /** The instructions this method covers: the whole function, or one chunk of a split one. */
    final int lo, hi;
    /** Float registers and unboxed floats in double locals (from slot FIRST_DOUBLE on). */
    final FloatCode fl;
    static final int FIRST_DOUBLE = 9;

    MethodBody(CodeBuilder c, FuncInfo f, int lo, int hi, Instr[] code, ClassData data, FloatPlan plan) {
        this.c = c; this.f = f; this.code = code; this.data = data; this.lo = lo; this.hi = hi;
        labels = new Label[hi - lo];
        for (int i = 0; i < labels.length; i++) labels[i] = c.newLabel();
        dispatch = c.newLabel();
        leave = c.newLabel();
        e = new Emit(c, f.module.consts, data);
        fl = new FloatCode(this, plan, FIRST_DOUBLE);
    }

    /** Leaves the method with the int on the stack; float registers go back to the array first. */
    void ret() { fl.spill(); c.ireturn(); }

    Label at(int pc) { return labels[pc - lo]; }

    /** A pc this method has a label for (elsewhere: return it to the caller of run). */
    boolean inside(int pc) { return pc >= lo && pc < hi; }

    void emit() {
        if (primes()) {
            // A priming call (LoopPrime): counted as an invocation, returns at once. A switch,
            // not a compare: no branch profile for C2 to turn into a trap.
            Label real = c.newLabel(), primed = c.newLabel();
            c.iload(PC); c.lookupswitch(real, List.of(SwitchCase.of(LoopPrime.PC, primed)));
            c.labelBinding(primed);
            c.iload(PC); c.ireturn();
            c.labelBinding(real);
        }
        c.aload(IT); c.getfield(CD_INTERP, "x", CD_TERMS); c.astore(X);
        c.aload(IT); c.getfield(CD_INTERP, "fr", CD_double.arrayType()); c.astore(FR);
        c.iconst_0(); c.istore(CUR);
        c.aconst_null(); c.astore(T1);
        c.aconst_null(); c.astore(T2);
        fl.init();
        // dispatch: stay in compiled code only for pcs of this function in this module.
        c.labelBinding(dispatch);
        Label out = c.newLabel();
        Label here = c.newLabel();
        inModule();
        c.lookupswitch(out, List.of(SwitchCase.of(1, here)));
        c.labelBinding(here);
        List<SwitchCase> cases = new ArrayList<>();
        for (int pc = lo; pc < hi; pc++) cases.add(SwitchCase.of(pc, at(pc)));
        c.iload(PC);
        c.tableswitch(lo, hi - 1, out, cases);
        c.labelBinding(out);
        c.iload(PC); ret();
        c.labelBinding(leave);
        c.loadConstant(Integer.MIN_VALUE); ret();

        Label start = c.newLabel(), end = c.newLabel(), handler = c.newLabel();
        c.labelBinding(start);
        int chained = lo;   // instructions before this one are in a chain already
        for (int pc = lo; pc < hi; pc++) {
            int chainEnd = pc >= chained ? ArithChain.end(this, pc) : pc;
            if (chainEnd > pc) {   // an optimistic copy in long locals first (ADR 0071)
                ArithChain.emitAt(this, pc, chainEnd);
                chained = chainEnd;
                continue;
            }
            c.labelBinding(at(pc));
            c.loadConstant(pc); c.istore(CUR);
            instr(pc, code[pc]);
        }
        c.labelBinding(end);
        // catch (ErlangException ex) { pc = JitSupport.handle(it, ex, cur, CODE[cur]); leave or dispatch }
        c.labelBinding(handler);
        c.astore(EX);
        c.aload(IT); c.aload(EX); c.iload(CUR);
        data.load(c, code, CD_INSTRS); c.iload(CUR); c.aaload();
        c.invokestatic(CD_SUPPORT, "handle", MethodTypeDesc.of(CD_int, CD_INTERP, CD_EXC, CD_int, CD_INSTR));
        toPcOnStack();
        c.exceptionCatch(start, end, handler, CD_EXC);
    }

    /**
     * Next pc is on the operand stack: LEAVE returns, anything else goes through dispatch.
     * The pc tests of this class are switches, not compares: C2 compiles a compare whose
     * profile never saw one outcome as a trap, and the first LEAVE (or timeout) at a site
     * that had not seen one threw the whole compiled function away (JFR: "unstable_if" at
     * this test in gen:do_call/4 and gen_server:loop/7, a 0.25-0.9 s C2 recompile each,
     * ADR 0043). C2 has no per-case profile of a switch (-XX:-UseSwitchProfiling).
     */
    void toPcOnStack() {
        c.dup(); c.istore(PC);
        c.lookupswitch(dispatch, List.of(SwitchCase.of(Integer.MIN_VALUE, leave)));
    }

    /** 1 on the stack when {@code it.mod} is this function's module, else 0 (JitSupport.inModule). */
    void inModule() {
        c.aload(IT); c.getfield(CD_INTERP, "mod", CD_MODULE);
        data.load(c, f.module, CD_MODULE);
        c.invokestatic(CD_SUPPORT, "inModule", MethodTypeDesc.of(CD_int, CD_MODULE, CD_MODULE));
    }

    /** Jumps to {@code next} when the pc in PC is it and the interpreter is still in this module. */
    void jumpIfStillHere(int next) {
        if (!inside(next)) return;
        Label slow = c.newLabel(), same = c.newLabel();
        c.iload(PC); c.lookupswitch(slow, List.of(SwitchCase.of(next, same)));
        c.labelBinding(same);
        Label here = c.newLabel();
        inModule();
        c.lookupswitch(slow, List.of(SwitchCase.of(1, here)));
        c.labelBinding(here);
        c.goto_(at(next));
        c.labelBinding(slow);
    }

    /** After a helper that returned the next pc: fall through when it is {@code next} in this module. */
    void continueOrDispatch(int next) {
        c.istore(PC);
        jumpIfStillHere(next);
        c.iload(PC);
        toPcOnStack();
    }

    /**
     * After a non-tail call helper that returned the next pc: fall through when the callee was
     * a native that returned here; otherwise enter the callee's compiled code (DirectCall).
     */
    void continueOrCall(int next) {
        if (!DirectCall.ENABLED) { continueOrDispatch(next); return; }
        c.istore(PC);
        jumpIfStillHere(next);
        DirectCall.emit(this, next); // LEAVE is not run: returned as it is
    }

    /**
     * After a tail-call helper returned the callee's pc: this function's own code (a fun
     * calling its own function) through the dispatch switch, anything else compiled through
     * a trampoline (DirectCall.tail).
     */
    void continueOrTrampoline(int next) {
        if (!DirectCall.ENABLED) { continueOrDispatch(next); return; }
        c.istore(PC);
        jumpIfStillHere(next);
        Label other = c.newLabel();
        c.iload(PC); c.loadConstant(Integer.MIN_VALUE); c.if_icmpeq(leave);
        c.iload(PC); c.loadConstant(f.start); c.if_icmplt(other);
        c.iload(PC); c.loadConstant(f.end); c.if_icmpge(other);
        c.aload(IT); c.getfield(CD_INTERP, "mod", CD_MODULE); data.load(c, f.module, CD_MODULE); c.if_acmpne(other);
        c.goto_(dispatch);
        c.labelBinding(other);
        DirectCall.tail(this);
    }

    void jump(int target) {
        if (inside(target)) c.goto_(at(target));
        else { c.loadConstant(target); ret(); }
    }

    /** Loads CODE[pc] (the instruction object) for helpers that take it. */
    void instrObj(int pc) { data.load(c, code[pc], CD_INSTR); }

    void retObj(int pc) { data.load(c, code[pc].ret, CD_RA); }

    void instr(int pc, Instr in) {
        int next = pc + 1;
        if (fl.instr(pc, in)) { jump(next); return; }
        switch (in.op) {
            case Ops.MOVE_XX -> { e.storeX(in.d, () -> e.loadX(in.a)); }
            case Ops.MOVE_XY -> { e.storeY(in.d, () -> e.loadX(in.a)); }
            case Ops.MOVE_YX -> { e.storeX(in.d, () -> e.loadY(in.a)); }
            case Ops.MOVE_KX -> { e.storeX(in.d, () -> term(pc)); }
            case Ops.MOVE_XY_XX -> { e.storeY(in.d, () -> e.loadX(in.a)); e.storeX(in.c, () -> e.loadX(in.b)); jump(pc + 2); return; }
            case Ops.MOVE_XX_XX -> { e.storeX(in.d, () -> e.loadX(in.a)); e.storeX(in.c, () -> e.loadX(in.b)); jump(pc + 2); return; }
            case Ops.MOVE_XY_XX_CALL -> {
                e.storeY(in.d, () -> e.loadX(in.a)); e.storeX(in.c, () -> e.loadX(in.b));
                call(pc, in.e, in.f, true); return;
            }
            case MOVE -> e.put(in.d, () -> e.get(in.a));
            case CALL -> { call(pc, in.b, in.a, true); return; }
            case CALL_LAST -> { e.addSp(-in.c); call(pc, in.b, in.a, false); return; }
            case CALL_ONLY -> { call(pc, in.b, in.a, false); return; }
            case CALL_EXT, CALL_EXT_LAST, CALL_EXT_ONLY -> {
                if (in.op == CALL_EXT_LAST) e.addSp(-in.c);
                Instr nif = NifCallSite.nifBody(in);
                if (nif != null) NifCallSite.emit(this, pc, in, nif);
                else {
                    c.aload(IT); data.load(c, in.o, CD_EXPORT);
                    c.loadConstant(in.a);
                    if (in.op == CALL_EXT) { retObj(pc); } else c.aconst_null();
                    c.loadConstant(next);
                    c.invokevirtual(CD_INTERP, "callExport", MethodTypeDesc.of(CD_int, CD_EXPORT, CD_int, CD_RA, CD_int));
                }
                if (in.op == CALL_EXT) continueOrCall(next); else continueOrTrampoline(next);
                return;
            }
            case CALL_FUN2, CALL_FUN -> {
                boolean tail = in.ret == null; // call_fun + deallocate + return (see Operands)
                // The fun first: call_fun2's may be a y register of the frame the tail call drops.
                if (in.op == CALL_FUN2) e.get(in.b); else e.loadX(in.a);
                if (tail) e.addSp(-in.c);
                Label slow = c.newLabel();
                if (tail && DirectCall.ENABLED) DirectCall.funTail(this, in.a, slow); // ADR 0059
                c.labelBinding(slow);
                c.aload(IT); c.swap();
                c.loadConstant(in.a);
                if (tail) c.aconst_null(); else retObj(pc);
                c.loadConstant(next);
                c.invokevirtual(CD_INTERP, "callFun", MethodTypeDesc.of(CD_int, CD_TERM, CD_int, CD_RA, CD_int));
                if (tail) continueOrTrampoline(next); else continueOrCall(next);
                return;
            }
            case APPLY, APPLY_LAST -> { // erlang:apply/3 inline (gen_server's dispatch): ADR 0047
                boolean tail = in.op == APPLY_LAST;
                if (tail) e.addSp(-in.c);
                c.aload(IT); c.loadConstant(in.a);
                if (tail) c.aconst_null(); else retObj(pc);
                c.loadConstant(next);
                c.invokevirtual(CD_INTERP, "apply", MethodTypeDesc.of(CD_int, CD_int, CD_RA, CD_int));
                if (tail) continueOrTrampoline(next); else continueOrCall(next);
                return;
            }
            case RETURN -> { doReturn(); return; }
            case Ops.DEALLOCATE_RETURN -> { e.addSp(-in.a); doReturn(); return; }
            case Ops.ADD, Ops.SUB -> arith(pc, in, CD_SMALL, in.op == Ops.ADD ? "add" : "sub");
            case Ops.ELEMENT -> arith(pc, in, CD_SUPPORT, "element");
            case Ops.MUL -> arith(pc, in, CD_SMALL, "mul");
            case Ops.REM -> arith(pc, in, CD_SMALL, "rem");
            case Ops.IDIV -> arith(pc, in, CD_SMALL, "idiv");
            case Ops.BAND -> arith(pc, in, CD_SMALL, "band");
            case Ops.BOR -> arith(pc, in, CD_SMALL, "bor");
            case Ops.BXOR -> arith(pc, in, CD_SMALL, "bxor");
            case Ops.BSR -> arith(pc, in, CD_SMALL, "bsr");
            case Ops.BSL -> arith(pc, in, CD_SMALL, "bsl");
            case SWAP -> {
                e.get(in.a); c.astore(T1);
                e.put(in.a, () -> e.get(in.b));
                e.put(in.b, () -> c.aload(T1));
                c.aconst_null(); c.astore(T1);
            }
            case CATCH, TRY -> {
                // The handler tag is fixed per instruction: a class-data constant, no allocation.
                CatchTag tag = new CatchTag(f.module, in.a, in.d & Instr.INDEX_MASK);
                e.put(in.d, () -> data.load(c, tag, CD_TERM));
                catches(1);
            }
            case TRY_END -> { e.put(in.d, () -> c.getstatic(desc("org.jbeam.term.ENil"), "NIL", desc("org.jbeam.term.ENil"))); catches(-1); }
            case INIT_YREGS -> { for (int r : (int[]) in.o) e.put(r, () -> c.getstatic(desc("org.jbeam.term.ENil"), "NIL", desc("org.jbeam.term.ENil"))); }
            case IS_EQ -> { e.get(in.a); e.get(in.b); e.call(CD_SLOW, "eq", CD_boolean, CD_TERM, CD_TERM); branchTo(in.e, Cond.IFEQ); }
            case IS_NE -> { e.get(in.a); e.get(in.b); e.call(CD_SLOW, "eq", CD_boolean, CD_TERM, CD_TERM); branchTo(in.e, Cond.IFNE); }
            case IS_FLOAT -> typeTest(in, "org.jbeam.term.EFloat");
            case IS_NUMBER -> typeTest(in, "org.jbeam.term.ENumber");
            case IS_PID -> typeTest(in, "org.jbeam.term.EPid");
            case IS_REFERENCE -> typeTest(in, "org.jbeam.term.ERef");
            case IS_PORT -> typeTest(in, "org.jbeam.term.EPort");
            case IS_BITSTR -> typeTest(in, "org.jbeam.term.EBitString");
            case IS_MAP -> typeTest(in, "org.jbeam.term.EMap");
            case IS_FUNCTION -> typeTest(in, "org.jbeam.term.EFun");
            case IS_BINARY -> { e.get(in.a); e.support("isBinary", CD_boolean, CD_TERM); branchTo(in.e, Cond.IFEQ); }
            case IS_BOOLEAN -> { e.get(in.a); e.support("isBoolean", CD_boolean, CD_TERM); branchTo(in.e, Cond.IFEQ); }
            case IS_FUNCTION2 -> { e.get(in.a); e.get(in.b); e.call(CD_INTERP, "isFunction2", CD_boolean, CD_TERM, CD_TERM); branchTo(in.e, Cond.IFEQ); }
            case SELECT_TUPLE_ARITY -> {
                data.load(c, in.o, CD_SELECT); e.get(in.a); c.loadConstant(in.e);
                c.invokevirtual(CD_SELECT, "selectTupleArity", MethodTypeDesc.of(CD_int, CD_TERM, CD_int));
                c.istore(PC); c.goto_(dispatch); return;
            }
            case GET_MAP_ELEMENTS, HAS_MAP_FIELDS -> {
                c.aload(IT); e.get(in.a); data.load(c, in.o, CD_INTS);
                e.call(CD_MAPS, in.op == GET_MAP_ELEMENTS ? "getElements" : "hasFields", CD_boolean, CD_INTERP, CD_TERM, CD_INTS);
                branchTo(in.e, Cond.IFEQ);
            }
            case PUT_MAP_ASSOC, PUT_MAP_EXACT -> e.put(in.d, () -> {
                c.aload(IT); e.get(in.a); data.load(c, in.o, CD_INTS);
                e.call(CD_MAPS, in.op == PUT_MAP_ASSOC ? "putAssoc" : "putExact", CD_TERM, CD_INTERP, CD_TERM, CD_INTS);
            });
            case BIF0, BIF1, BIF2, GC_BIF1, GC_BIF2, GC_BIF3 -> { bifSlow(pc, in); }
            case ALLOCATE, ALLOCATE_ZERO, ALLOCATE_HEAP, ALLOCATE_HEAP_ZERO -> {
                // allocate 0 (a frame of just the return address, which the call pushed): nothing
                // to do; it was a store of the stack array and of sp per fun call in bench_tailfun.
                if (in.a != 0) { c.aload(IT); c.loadConstant(in.a); c.invokevirtual(CD_INTERP, "allocate", MethodTypeDesc.of(CD_void, CD_int)); }
            }
            case DEALLOCATE, TRIM -> e.addSp(-in.a);
            case INIT -> e.put(in.d, () -> c.getstatic(desc("org.jbeam.term.ENil"), "NIL", desc("org.jbeam.term.ENil")));
            case Ops.IS_LT_XK -> lessTest(() -> e.loadX(in.a), () -> term(pc), false, in.e);
            case Ops.IS_GE_XK -> lessTest(() -> e.loadX(in.a), () -> term(pc), true, in.e);
            case Ops.IS_LT_KX -> lessTest(() -> term(pc), () -> e.loadX(in.b), false, in.e);
            case Ops.IS_GE_KX -> lessTest(() -> term(pc), () -> e.loadX(in.b), true, in.e);
            case Ops.IS_LT_XX -> lessTest(() -> e.loadX(in.a), () -> e.loadX(in.b), false, in.e);
            case Ops.IS_GE_XX -> lessTest(() -> e.loadX(in.a), () -> e.loadX(in.b), true, in.e);
            case IS_LT -> lessTest(() -> e.get(in.a), () -> e.get(in.b), false, in.e);
            case IS_GE -> lessTest(() -> e.get(in.a), () -> e.get(in.b), true, in.e);
            case Ops.IS_EQ_EXACT_XA -> { e.loadX(in.a); term(pc); branchTo(in.e, Cond.ACMPNE); }
            case Ops.IS_NE_EXACT_XA -> { e.loadX(in.a); term(pc); branchTo(in.e, Cond.ACMPEQ); }
            case IS_EQ_EXACT -> { e.get(in.a); e.get(in.b); termEquals(); branchTo(in.e, Cond.IFEQ); }
            case IS_NE_EXACT -> { e.get(in.a); e.get(in.b); termEquals(); branchTo(in.e, Cond.IFNE); }
            case IS_INTEGER -> typeTest(in, "org.jbeam.term.EInteger");
            case IS_ATOM -> typeTest(in, "org.jbeam.term.EAtom");
            case IS_LIST -> typeTest(in, "org.jbeam.term.EList");
            case IS_NONEMPTY_LIST, Ops.IS_NONEMPTY_LIST_X -> typeTest(in, "org.jbeam.term.ECons");
            case IS_TUPLE -> typeTest(in, "org.jbeam.term.ETuple");
            case IS_NIL -> { e.get(in.a); c.getstatic(desc("org.jbeam.term.ENil"), "NIL", desc("org.jbeam.term.ENil")); branchTo(in.e, Cond.ACMPNE); }
            case Ops.IS_NONEMPTY_LIST_GET -> {
                e.loadX(in.a); e.support("consOrNull", CD_ECONS, CD_TERM); c.astore(T2);
                c.aload(T2); branchTo(in.e, Cond.IFNULL);
                e.storeX(in.b, () -> { c.aload(T2); c.checkcast(CD_ECONS); c.getfield(CD_ECONS, "head", CD_TERM); });
                e.storeX(in.c, () -> { c.aload(T2); c.checkcast(CD_ECONS); c.getfield(CD_ECONS, "tail", CD_TERM); });
                jump(pc + 2); return;
            }
            case Ops.IS_TUPLE_ARITY -> {
                e.loadX(in.a); c.loadConstant(in.b); e.support("isTupleArity", CD_boolean, CD_TERM, CD_int);
                branchTo(in.e, Cond.IFEQ); jump(pc + 2); return;
            }
            case TEST_ARITY, Ops.TEST_ARITY_X -> { e.get(in.a); c.loadConstant(in.b); e.support("isTupleArity", CD_boolean, CD_TERM, CD_int); branchTo(in.e, Cond.IFEQ); }
            case IS_TAGGED_TUPLE -> {
                e.get(in.a); c.loadConstant(in.b); term(pc);
                e.support("isTaggedTuple", CD_boolean, CD_TERM, CD_int, CD_TERM); branchTo(in.e, Cond.IFEQ);
            }
            // A pre-trained helper and a switch, not a compare: a loop's exit test (ADR 0053).
            case Ops.IS_EQ_EXACT_XI -> { e.loadX(in.a); c.loadConstant((long) in.f); isSmall(); switchTo(in.e, 0); }
            case Ops.IS_NE_EXACT_XI -> { e.loadX(in.a); c.loadConstant((long) in.f); isSmall(); switchTo(in.e, 1); }
            case SELECT_VAL -> {
                instrObj(pc); e.get(in.a); e.support("select", CD_int, CD_INSTR, CD_TERM);
                c.istore(PC); c.goto_(dispatch); return;
            }
            case JUMP -> { jump(in.a); return; }
            case Ops.GET_LIST_XXX, GET_LIST -> {
                e.get(in.a); c.checkcast(CD_ECONS); c.astore(T2);
                e.put(in.b, () -> { c.aload(T2); c.checkcast(CD_ECONS); c.getfield(CD_ECONS, "head", CD_TERM); });
                e.put(in.c, () -> { c.aload(T2); c.checkcast(CD_ECONS); c.getfield(CD_ECONS, "tail", CD_TERM); });
            }
            case GET_HD -> e.put(in.d, () -> { e.get(in.a); c.checkcast(CD_ECONS); c.getfield(CD_ECONS, "head", CD_TERM); });
            case GET_TL -> e.put(in.d, () -> { e.get(in.a); c.checkcast(CD_ECONS); c.getfield(CD_ECONS, "tail", CD_TERM); });
            case GET_TUPLE_ELEMENT, Ops.GET_TUPLE_ELEMENT_XX ->
                e.put(in.d, () -> { e.get(in.a); c.loadConstant(in.b); e.support("tupleElement", CD_TERM, CD_TERM, CD_int); });
            case PUT_LIST, Ops.PUT_LIST_XXX -> e.put(in.d, () -> {
                c.new_(CD_ECONS); c.dup(); e.get(in.a); e.get(in.b);
                c.invokespecial(CD_ECONS, INIT_NAME, MethodTypeDesc.of(CD_void, CD_TERM, CD_TERM));
            });
            case PUT_TUPLE2 -> { c.aload(IT); instrObj(pc); c.invokevirtual(CD_INTERP, "putTuple", MethodTypeDesc.of(CD_void, CD_INSTR)); }
            case BS_START_MATCH3, BS_START_MATCH4, BS_GET_POSITION, BS_SET_POSITION, BS_GET_TAIL, BS_TEST_TAIL2, BS_TEST_UNIT,
                 BS_SKIP_BITS2, BS_GET_INTEGER2, BS_GET_BINARY2, BS_MATCH_STRING -> BitCode.emit(this, pc, in);
            case LOOP_REC, LOOP_REC_END, REMOVE_MESSAGE, TIMEOUT, WAIT, WAIT_TIMEOUT, RECV_MARKER_RESERVE,
                 RECV_MARKER_BIND, RECV_MARKER_USE, RECV_MARKER_CLEAR, SEND, CATCH_END -> { ReceiveCode.emit(this, pc, in); return; } // ADR 0047
            case BS_CREATE_BIN -> {
                if (BitCode.create(this, pc, in)) return;
                c.aload(IT); instrObj(pc); c.loadConstant(next);
                e.support("bitSyntax", CD_int, CD_INTERP, CD_INSTR, CD_int);
                continueOrDispatch(next); return;
            }
            default -> {
                // Everything else: the interpreter's own implementation (which may use fr).
                fl.spill();
                c.aload(IT); instrObj(pc); c.loadConstant(next);
                e.call(CD_SLOW, "execute", CD_int, CD_INTERP, CD_INSTR, CD_int);
                fl.reload();
                continueOrDispatch(next); return;
            }
        }
        jump(next);
    }

    /** call/call_only/call_last to a local function at {@code target}. */
    void call(int pc, int target, int arity, boolean pushReturn) {
        if (pushReturn) {
            c.aload(IT); retObj(pc);
            c.invokevirtual(CD_INTERP, "push", MethodTypeDesc.of(CD_void, CD_RA));
        }
        // if (--it.reds <= 0) return JitSupport.yieldAt(it, target, arity)
        Label go = c.newLabel();
        c.aload(IT); c.dup(); c.getfield(CD_INTERP, "reds", CD_int); c.iconst_1(); c.isub(); c.dup_x1();
        c.putfield(CD_INTERP, "reds", CD_int);
        c.ifgt(go);
        c.aload(IT); c.loadConstant(target); c.loadConstant(arity);
        e.support("yieldAt", CD_int, CD_INTERP, CD_int, CD_int);
        ret();
        c.labelBinding(go);
        if (target < f.start || target >= f.end) {
            // Leaving for an interpreted local function: count it towards its compilation.
            FuncInfo callee = f.module.functionAt(target);
            if (callee != null) {
                data.load(c, callee, desc("org.jbeam.code.FuncInfo"));
                e.support("callOut", CD_void, desc("org.jbeam.code.FuncInfo"));
            }
        }
        if (pushReturn && !inside(target) && DirectCall.ENABLED) {
            c.loadConstant(target); c.istore(PC);
            ReturnAddr ra = code[pc].ret;
            DirectCall.emit(this, ra != null && ra.module == f.module ? ra.pc : -1);
        } else if (!inside(target) && DirectCall.ENABLED && f.module.functionAt(target) != f) {
            c.loadConstant(target); c.istore(PC);
            DirectCall.tail(this);
        } else {
            if (inside(target) && primes()) LoopPrime.emit(this);
            jump(target);
        }
    }

    /** Whether this method counts its self calls as invocations (LoopPrime): a whole-function method. */
    boolean primes() { return LoopPrime.ENABLED && lo == f.start && hi == f.end; }

    /** {@code it.p.catches += delta} */
    void catches(int delta) {
        ClassDesc proc = desc("org.jbeam.runtime.ErlProcess");
        c.aload(IT); c.getfield(CD_INTERP, "p", proc); c.dup();
        c.getfield(proc, "catches", CD_int); c.loadConstant(delta); c.iadd();
        c.putfield(proc, "catches", CD_int);
    }

    void doReturn() {
        c.aload(IT); c.invokevirtual(CD_INTERP, "doReturn", MethodTypeDesc.of(CD_int));
        c.istore(PC); c.goto_(dispatch);
    }

    static final java.util.Set<String> LITERAL_HELPERS = java.util.Set.of("add", "sub", "rem", "idiv", "band", "bsr");

    /** ADD/SUB/ELEMENT: inline fast path through a helper, else the general BIF. */
    void arith(int pc, Instr in, ClassDesc owner, String helper) {
        Label slow = c.newLabel(), done = c.newLabel();
        e.get(in.a);
        // A literal small integer second operand: as a long constant (SmallInts.addK, ADR 0059).
        org.jbeam.term.ESmall k;
        if (owner == CD_SMALL && LITERAL_HELPERS.contains(helper) && (k = smallLiteral(in.b)) != null) {
            c.loadConstant(k.value); e.call(owner, helper + "K", CD_TERM, CD_TERM, CD_long);
        } else { e.get(in.b); e.call(owner, helper, CD_TERM, CD_TERM, CD_TERM); }
        c.astore(T1);
        c.aload(T1); c.ifnull(slow);
        e.put(in.d, () -> c.aload(T1));
        c.aconst_null(); c.astore(T1);
        c.goto_(done);
        c.labelBinding(slow);
        bifSlow(pc, in);
        c.labelBinding(done);
    }

    /** The literal small integer operand {@code op} names, or null (a register, another literal). */
    org.jbeam.term.ESmall smallLiteral(int op) {
        return (op & Instr.KIND_MASK) == Instr.K && f.module.consts[op & Instr.INDEX_MASK] instanceof org.jbeam.term.ESmall k ? k : null;
    }

    /** bifSlow returns pc+1 on success or the fail label. */
    void bifSlow(int pc, Instr in) {
        c.aload(IT); instrObj(pc); c.loadConstant(pc + 1);
        c.invokevirtual(CD_INTERP, "bifSlow", MethodTypeDesc.of(CD_int, CD_INSTR, CD_int));
        if (in.e != 0) {
            c.loadConstant(pc + 1);
            branchTo(in.e, Cond.ICMPNE);
        } else c.pop();
    }

    void lessTest(Runnable a, Runnable b, boolean negate, int fail) {
        a.run(); b.run();
        e.call(CD_INTERP, "less", CD_boolean, CD_TERM, CD_TERM);
        branchTo(fail, negate ? Cond.IFNE : Cond.IFEQ);
    }

    void typeTest(Instr in, String cls) {
        e.get(in.a); c.instanceOf(desc(cls));
        branchTo(in.e, Cond.IFEQ);
    }

    /** =:= of the two terms on the stack (the interpreter's is_eq_exact: Term.equals). */
    void termEquals() { c.invokevirtual(CD_TERM, "equals", MethodTypeDesc.of(CD_boolean, CD_Object)); }

    void term(int pc) { data.load(c, code[pc].t, CD_TERM); }

    enum Cond { IFEQ, IFNE, IFNULL, ACMPEQ, ACMPNE, ICMPNE, IFGE, IFLT }

    /** CompiledBranches.isSmall(term, long): 1 or 0 on the stack. */
    void isSmall() {
        c.invokestatic(desc("org.jbeam.interp.CompiledBranches"), "isSmall", MethodTypeDesc.of(CD_int, CD_TERM, CD_long));
    }

    /**
     * To {@code target} when the int on the stack is {@code value}, else on: a one-case switch,
     * which keeps no per-site profile (a compare that had gone one way only was compiled as a
     * trap; ADR 0043, 0053). Outside the function: return the target pc.
     */
    void switchTo(int target, int value) {
        Label on = c.newLabel();
        Label l = inside(target) ? at(target) : c.newLabel();
        c.lookupswitch(on, List.of(SwitchCase.of(value, l)));
        if (!inside(target)) {
            c.labelBinding(l);
            c.loadConstant(target); ret();
        }
        c.labelBinding(on);
    }

    /** Conditional branch to the label {@code target} (outside the function: return it). */
    void branchTo(int target, Cond cond) {
        Label l;
        Label skip = null;
        if (inside(target)) l = at(target);
        else {
            l = c.newLabel();
            skip = c.newLabel();
        }
        switch (cond) {
            case IFEQ -> c.ifeq(l);
            case IFNE -> c.ifne(l);
            case IFNULL -> c.ifnull(l);
            case ACMPEQ -> c.if_acmpeq(l);
            case ACMPNE -> c.if_acmpne(l);
            case ICMPNE -> c.if_icmpne(l);
            case IFGE -> c.ifge(l);
            case IFLT -> c.iflt(l);
        }
        if (skip != null) {
            c.goto_(skip);
            c.labelBinding(l);
            c.loadConstant(target); ret();
            c.labelBinding(skip);
        }
    }
}
