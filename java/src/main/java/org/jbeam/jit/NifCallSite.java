package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.jit.JitCompiler.*;
import static org.jbeam.loader.Opcodes.*;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;

import org.jbeam.bif.BifTable;
import org.jbeam.code.BeamModule;
import org.jbeam.code.Export;
import org.jbeam.code.FuncInfo;
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.code.ReturnAddr;

/**
 * A call to a NIF from compiled code. A local call (call, call_last, call_only) to a function of
 * the same module whose body is a NIF of arity 0-3 (ADR 0038) -- the usual shape in OTP's NIF
 * modules, whose wrappers call the stubs locally (crypto:hash_update/4 calls hash_update_nif/2)
 * -- calls the NIF's entry through {@code JitNif.callN} as a call_ext does; otherwise the stub's
 * CALL_NATIVE ran in the interpreter (and kept Interpreter.loop hot in C2's queue).
 * A call_ext to a NIF (ADR 0031): when the export leads to a NIF of arity 0-3 at compile time, the
 * call site checks that it still does ({@code JitNif.still}) and calls the NIF's entry, a
 * class-data constant, through {@code JitNif.callN}; otherwise (the module was reloaded or
 * deleted since) it takes {@code Interpreter.callExport} as every other call_ext does. Either
 * way the next pc is left on the operand stack, as after callExport.
 */
final class NifCallSite {
    private NifCallSite() {}

    /** {@code -Djbeam.jit.nif=false}: NIF calls go through callExport like any other (for measuring). */
    static final boolean ENABLED = !"false".equals(System.getProperty("jbeam.jit.nif"));

    private static final ClassDesc CD_JITNIF = desc("org.jbeam.interp.JitNif"), CD_BIF = desc("org.jbeam.bif.Bif");

    /** The NIF's CALL_NATIVE instruction the export leads to now, or null. */
    static Instr nifBody(Instr call) {
        if (!ENABLED || !(call.o instanceof Export e) || e.arity > 3 || e.arity != call.a || e.bif != null) return null;
        BeamModule m = e.module;
        if (m == null) return null;
        Instr body = m.code[e.pc];
        return body.op == Ops.CALL_NATIVE && body.c == Ops.NATIVE_NIF && body.o instanceof BifTable.Entry ? body : null;
    }

    /**
     * The NIF body of the local function at {@code target} (arity {@code arity}), or null. A module
     * version's NIF entries are set once, by load_nif, before anything compiled from that version
     * can see them (a reload is a new version), so the compile-time body is the body for good;
     * local call tracing is the one thing that reroutes it (see {@link #emitLocal}).
     */
    static Instr localNifBody(Instr[] code, int target, int arity) {
        if (!ENABLED || arity > 3 || target < 0 || target >= code.length) return null;
        Instr body = code[target];
        return body.op == Ops.CALL_NATIVE && body.c == Ops.NATIVE_NIF && body.a == arity && body.o instanceof BifTable.Entry ? body : null;
    }

    /**
     * Emits a local call to the NIF at {@code body} (the function at {@code target}) when the callee
     * is not locally traced ({@code FuncInfo.traceEntry == 0}, checked per call), leaving the pc to
     * continue at on the stack, and jumps to {@code after}; binds the returned label to the code for
     * the other case, which the caller emits (the ordinary local call).
     */
    static Label emitLocal(JitCompiler.Body b, int pc, int target, boolean pushReturn, Instr body, Label after) {
        CodeBuilder c = b.c;
        Label regular = c.newLabel();
        FuncInfo callee = b.f.module.functionAt(target);
        if (callee == null) return null;
        ReturnAddr ra = pushReturn ? b.code[pc].ret : null;
        if (pushReturn && ra == null) return null;
        int next = ra != null ? ra.pc : pc + 1;
        b.data.load(c, callee, CD_FUNCINFO);
        c.getfield(CD_FUNCINFO, "traceEntry", CD_int);
        c.ifne(regular);
        BifTable.Entry entry = (BifTable.Entry) body.o;
        int arity = body.a;
        ClassDesc shape = CD_BIF.nested("F" + arity);
        c.aload(JitCompiler.Body.IT);
        b.data.load(c, entry.fn(), shape);
        b.data.load(c, body, CD_INSTR);
        if (pushReturn) b.retObj(pc); else c.aconst_null();
        c.loadConstant(next);
        c.invokestatic(CD_JITNIF, "call" + arity, MethodTypeDesc.of(CD_int, CD_INTERP, shape, CD_INSTR, CD_RA, CD_int));
        c.goto_(after);
        return regular;
    }

    /** The pc after the local call at {@code pc} that {@link #emitLocal} continues at. */
    static int localNext(JitCompiler.Body b, int pc, boolean pushReturn) {
        return pushReturn ? b.code[pc].ret.pc : pc + 1;
    }

    private static final ClassDesc CD_FUNCINFO = desc("org.jbeam.code.FuncInfo");

    /**
     * Emits the call of {@code in} (call_ext, call_ext_last after its deallocation, call_ext_only)
     * to the NIF at {@code body}, leaving the next pc on the stack.
     */
    static void emit(JitCompiler.Body b, int pc, Instr in, Instr body) {
        CodeBuilder c = b.c;
        Export e = (Export) in.o;
        int next = pc + 1;
        Label slow = c.newLabel(), done = c.newLabel();
        b.data.load(c, e, CD_EXPORT); b.data.load(c, body, CD_INSTR);
        c.invokestatic(CD_JITNIF, "still", MethodTypeDesc.of(CD_boolean, CD_EXPORT, CD_INSTR));
        c.ifeq(slow);
        ClassDesc shape = CD_BIF.nested("F" + e.arity);
        c.aload(JitCompiler.Body.IT);
        b.data.load(c, ((BifTable.Entry) body.o).fn(), shape);
        b.data.load(c, body, CD_INSTR);
        if (in.op == CALL_EXT) b.retObj(pc); else c.aconst_null();
        c.loadConstant(next);
        c.invokestatic(CD_JITNIF, "call" + e.arity, MethodTypeDesc.of(CD_int, CD_INTERP, shape, CD_INSTR, CD_RA, CD_int));
        c.goto_(done);
        c.labelBinding(slow);
        c.aload(JitCompiler.Body.IT); b.data.load(c, e, CD_EXPORT);
        c.loadConstant(in.a);
        if (in.op == CALL_EXT) b.retObj(pc); else c.aconst_null();
        c.loadConstant(next);
        c.invokevirtual(CD_INTERP, "callExport", MethodTypeDesc.of(CD_int, CD_EXPORT, CD_int, CD_RA, CD_int));
        c.labelBinding(done);
    }
}
