package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.jit.JitCompiler.*;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.MethodTypeDesc;
import java.util.List;

import org.jbeam.code.Ops;

/**
 * Calls from compiled code straight into the callee's compiled code (ADR 0029). A non-tail call to
 * another function used to return the callee's pc to {@code Interpreter.loop}, which fetched the
 * callee's {@code jit_enter} and called its {@code run} through one megamorphic call site; the
 * callee's return came back the same way. Now the caller calls the callee's {@code run} itself
 * (one call site per Erlang call site, so HotSpot sees a monomorphic receiver) and continues
 * with whatever pc it returns: normally its own return point, otherwise it returns that pc.
 *
 * <p>Erlang recursion is deep and runs on the process's explicit stack, never the Java stack: the
 * nesting of such Java calls is bounded by {@link #MAX_NESTING} per scheduler thread; past it the
 * pc goes back to the loop as before. Tail calls never nest. Preemption, waiting and exits make
 * every nested {@code run} return {@code LEAVE} at once; hot code loading is unaffected because the
 * callee is looked up in the current code array at every call.
 */
final class DirectCall {
    private DirectCall() {}

    private static final java.lang.constant.ClassDesc CD_BRANCHES = desc("org.jbeam.interp.CompiledBranches");

    /** {@code -Djbeam.jit.direct=false}: every call goes back through the interpreter loop. */
    static final boolean ENABLED = !"false".equals(System.getProperty("jbeam.jit.direct"));
    static final int MAX_NESTING = Integer.getInteger("jbeam.jit.nesting", 64);

    /**
     * The PC local holds the pc a non-tail call just entered (in {@code it.code}, not LEAVE):
     * run it here when it is compiled, then continue at {@code back} (the call's return point in
     * this method, or -1) or dispatch on the result; otherwise return the pc.
     */
    static void emit(MethodBody b, int back) {
        CodeBuilder c = b.c;
        Label notRun = c.newLabel(), run = c.newLabel(), start = c.newLabel(), end = c.newLabel(), handler = c.newLabel();
        // Whether to run the callee here: one helper whose tests share one pre-trained profile,
        // then a switch (no per-site profile). Compares here were "never taken" at a site until
        // its callee got compiled, the nesting bound was reached or a call returned LEAVE, and
        // each first time threw this compiled function away (ADR 0043).
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "code", CD_INSTRS); c.iload(MethodBody.PC);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "jitNesting", CD_int); c.loadConstant(MAX_NESTING);
        c.invokestatic(CD_SUPPORT, "direct", MethodTypeDesc.of(CD_int, CD_INSTRS, CD_int, CD_int, CD_int));
        c.lookupswitch(notRun, List.of(SwitchCase.of(1, run)));
        c.labelBinding(run);
        nesting(c, 1);
        c.labelBinding(start);
        instrAt(c); c.getfield(CD_INSTR, "o", CD_Object); c.checkcast(CD_CF);
        c.aload(MethodBody.IT); c.iload(MethodBody.PC);
        c.invokevirtual(CD_CF, "run", RUN);
        c.labelBinding(end);
        nesting(c, -1);
        // The callee normally returns to this call's return point: jump straight there. That
        // label lies after this code, so the jump is a forward one; going through the dispatch
        // switch at the top of the method would be a backward jump, which HotSpot counts as a
        // loop iteration: a function making many calls (gen_server:handle_msg/6) then got an
        // on-stack-replacement compile by C2 before its normal one, two compiles of a large
        // method instead of one (ADR 0032).
        if (back >= 0) { c.istore(MethodBody.PC); b.jumpIfStillHere(back); c.iload(MethodBody.PC); }
        b.toPcOnStack();
        // Anything thrown through (a Preempt from a helper, an internal error): restore the count.
        c.labelBinding(handler);
        nesting(c, -1);
        c.athrow();
        c.exceptionCatchAll(start, end, handler);
        c.labelBinding(notRun);
        c.iload(MethodBody.PC); b.ret();
    }

    /**
     * A tail call (call_fun/call_ext/call_only to another function) whose callee pc is in the PC
     * local, not LEAVE (ADR 0045). Returning the pc to {@code Interpreter.loop}, which then entered
     * the callee through its megamorphic {@code jit_enter} call, cost a third of a tail call
     * between two compiled functions. Instead this site becomes a trampoline: it runs the callee
     * here, and while the callee (or whatever it tail-calls) returns the pc of another compiled
     * function, runs that too. A callee run by a trampoline does not become one itself: it
     * returns its tail callee's pc (bit {@code jitNesting} of {@code it.trampolines} tells it), so
     * a chain of tail calls of any length runs at one Java frame's depth. Nested runs are bounded
     * by {@link #MAX_NESTING} as for non-tail calls; past it the pc goes back to the loop as before.
     */
    static void tail(MethodBody b) {
        CodeBuilder c = b.c;
        Label notRun = c.newLabel(), run = c.newLabel();
        // Under a trampoline already (let it run the callee), at the nesting bound or the callee
        // not compiled: not here. One pre-trained helper and a switch, as for direct calls: these
        // were compares, and the first time one went the other way after C2 had compiled the
        // function (a trampoline already running at this nesting in gen_server:loop/7) threw the
        // compiled function away (ADR 0053).
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "trampolines", CD_long);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "jitNesting", CD_int); c.loadConstant(MAX_NESTING);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "code", CD_INSTRS); c.iload(MethodBody.PC);
        c.invokestatic(CD_BRANCHES, "trampoline", MethodTypeDesc.of(CD_int, CD_long, CD_int, CD_int, CD_INSTRS, CD_int));
        c.lookupswitch(notRun, List.of(SwitchCase.of(1, run)));
        c.labelBinding(run);
        trampoline(b, false);
        c.labelBinding(notRun);
        c.iload(MethodBody.PC); b.ret();
    }

    static final java.lang.constant.ClassDesc CD_FUNTAIL = desc("org.jbeam.interp.FunTail"),
            CD_FUNENTRY = desc("org.jbeam.code.FunEntry");
    private static final int HANDED = org.jbeam.interp.FunTail.HANDED;

    /**
     * A fun call in tail position (call_fun + deallocate + return; the fun on the stack, the frame
     * already gone) whose closure enters a compiled function of this module (ADR 0059): the
     * caller's own code is jumped to, any other runs in a trampoline from the closure's entry
     * (FunTail) without looking the pc up. Anything else goes to {@code callFun} as before,
     * through {@code slow} with the fun still on the stack.
     */
    static void funTail(MethodBody b, int arity, Label slow) {
        CodeBuilder c = b.c;
        Label found = c.newLabel(), miss = c.newLabel(), self = c.newLabel(), other = c.newLabel(), become = c.newLabel(),
                handOver = c.newLabel(), plain = c.newLabel();
        c.dup(); c.astore(MethodBody.T1);
        c.aload(MethodBody.IT); c.swap(); c.loadConstant(arity);
        c.invokestatic(CD_FUNTAIL, "target", MethodTypeDesc.of(CD_FUNENTRY, CD_INTERP, JitCompiler.CD_TERM, CD_int));
        c.dup(); c.invokestatic(CD_FUNTAIL, "isSet", MethodTypeDesc.of(CD_int, CD_Object));
        c.lookupswitch(miss, List.of(SwitchCase.of(1, found)));
        c.labelBinding(miss);
        c.pop(); c.aload(MethodBody.T1); c.aconst_null(); c.astore(MethodBody.T1);
        c.goto_(slow);
        // found: the FunEntry on the stack
        c.labelBinding(found);
        c.aconst_null(); c.astore(MethodBody.T1);
        c.dup(); c.getfield(CD_FUNENTRY, "pc", CD_int); c.istore(MethodBody.PC);
        c.dup(); c.aload(0);
        c.invokestatic(CD_FUNTAIL, "self", MethodTypeDesc.of(CD_int, CD_FUNENTRY, CD_Object));
        c.lookupswitch(other, List.of(SwitchCase.of(1, self)));
        // The caller's own code (a loop through a fun): straight to its entry when that is the
        // closure's pc (as it is for every fun), in the current module (target checked it);
        // otherwise, or in a chunk without the entry, the dispatch switch.
        c.labelBinding(self);
        c.pop();
        if (b.inside(b.f.entry)) {
            c.iload(MethodBody.PC); c.lookupswitch(b.dispatch, List.of(SwitchCase.of(b.f.entry, b.at(b.f.entry))));
        } else c.goto_(b.dispatch);
        c.labelBinding(other);
        c.getfield(CD_FUNENTRY, "jit", CD_Object); c.checkcast(CD_CF);
        c.aload(MethodBody.IT); c.swap(); c.putfield(CD_INTERP, "tailJit", CD_CF);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "trampolines", CD_long);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "jitNesting", CD_int); c.loadConstant(MAX_NESTING);
        c.invokestatic(CD_FUNTAIL, "mode", MethodTypeDesc.of(CD_int, CD_long, CD_int, CD_int));
        c.lookupswitch(plain, List.of(SwitchCase.of(1, become), SwitchCase.of(2, handOver)));
        c.labelBinding(become);
        trampoline(b, true);
        // Under a trampoline: it runs it.tailJit at the pc returned (marked: FunTail.HANDED).
        c.labelBinding(handOver);
        c.iload(MethodBody.PC); c.loadConstant(HANDED); c.iadd(); b.ret();
        // At the nesting bound: the caller gets the pc, and nothing may be left behind.
        c.labelBinding(plain);
        c.aload(MethodBody.IT); c.aconst_null(); c.putfield(CD_INTERP, "tailJit", CD_CF);
        c.iload(MethodBody.PC); b.ret();
    }

    /**
     * The trampoline at a tail call site: runs the compiled callee at the PC local (from the
     * instruction there, or when {@code pending} from {@code it.tailJit}, set by a fun tail call),
     * then, while a callee leaves another compiled function in {@code it.tailJit} (returning its
     * pc plus FunTail.HANDED) or returns the pc of one, runs that too; then continues with the pc
     * returned. Never falls through.
     */
    private static void trampoline(MethodBody b, boolean pending) {
        CodeBuilder c = b.c;
        Label start = c.newLabel(), loop = c.newLabel(), next = c.newLabel(), handed = c.newLabel(), runPending = c.newLabel(),
                end = c.newLabel(), handler = c.newLabel();
        b.fl.spill();
        nesting(c, 1);
        trampolineBit(c, true);
        c.labelBinding(start);
        if (pending) c.goto_(runPending);
        c.labelBinding(loop);
        instrAt(c); c.getfield(CD_INSTR, "o", CD_Object); c.checkcast(CD_CF);
        c.aload(MethodBody.IT); c.iload(MethodBody.PC);
        c.invokevirtual(CD_CF, "run", RUN);
        c.istore(MethodBody.PC);
        // Another compiled function: left by a fun tail call in it.tailJit (the pc marked), or the
        // one whose entry the pc is: run it too; LEAVE or anything else: done (a switch, see above).
        c.labelBinding(next);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "code", CD_INSTRS); c.iload(MethodBody.PC);
        c.invokestatic(CD_FUNTAIL, "next", MethodTypeDesc.of(CD_int, CD_INSTRS, CD_int));
        c.lookupswitch(end, List.of(SwitchCase.of(1, loop), SwitchCase.of(2, handed)));
        c.labelBinding(handed);
        c.iload(MethodBody.PC); c.loadConstant(HANDED); c.isub(); c.istore(MethodBody.PC);
        c.labelBinding(runPending);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "tailJit", CD_CF);
        c.aload(MethodBody.IT); c.aconst_null(); c.putfield(CD_INTERP, "tailJit", CD_CF);
        c.aload(MethodBody.IT); c.iload(MethodBody.PC);
        c.invokevirtual(CD_CF, "run", RUN);
        c.istore(MethodBody.PC);
        c.goto_(next);
        c.labelBinding(end);
        trampolineBit(c, false);
        nesting(c, -1);
        b.fl.reload();
        c.iload(MethodBody.PC);
        b.toPcOnStack();
        c.labelBinding(handler);
        trampolineBit(c, false);
        nesting(c, -1);
        c.aload(MethodBody.IT); c.aconst_null(); c.putfield(CD_INTERP, "tailJit", CD_CF);
        c.athrow();
        c.exceptionCatchAll(start, end, handler);
    }

    /** Sets or clears bit {@code jitNesting} of {@code it.trampolines}. */
    private static void trampolineBit(CodeBuilder c, boolean set) {
        c.aload(MethodBody.IT); c.dup(); c.getfield(CD_INTERP, "trampolines", CD_long);
        c.lconst_1(); c.aload(MethodBody.IT); c.getfield(CD_INTERP, "jitNesting", CD_int); c.lshl();
        if (set) c.lor();
        else { c.loadConstant(-1L); c.lxor(); c.land(); }
        c.putfield(CD_INTERP, "trampolines", CD_long);
    }

    /** it.code[pc] */
    private static void instrAt(CodeBuilder c) {
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "code", CD_INSTRS); c.iload(MethodBody.PC); c.aaload();
    }

    /** it.jitNesting += delta */
    private static void nesting(CodeBuilder c, int delta) {
        c.aload(MethodBody.IT); c.dup(); c.getfield(CD_INTERP, "jitNesting", CD_int);
        c.loadConstant(delta); c.iadd(); c.putfield(CD_INTERP, "jitNesting", CD_int);
    }
}
