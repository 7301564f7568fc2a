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
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;

/**
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
     * Emits the call of {@code in} (call_ext, call_ext_last after its deallocation, call_ext_only)
     * to the NIF at {@code body}, leaving the next pc on the stack.
     */
    static void emit(MethodBody b, int pc, Instr in, Instr body) {
        CodeBuilder c = b.c;
        Export e = (Export) in.o;
        int next = pc + 1;
        Label slow = c.newLabel(), done = c.newLabel();
        b.data.load(c, e, CD_EXPORT); b.data.load(c, body, CD_INSTR);
        c.invokestatic(CD_JITNIF, "still", MethodTypeDesc.of(CD_boolean, CD_EXPORT, CD_INSTR));
        c.ifeq(slow);
        ClassDesc shape = CD_BIF.nested("F" + e.arity);
        c.aload(MethodBody.IT);
        b.data.load(c, ((BifTable.Entry) body.o).fn(), shape);
        b.data.load(c, body, CD_INSTR);
        if (in.op == CALL_EXT) b.retObj(pc); else c.aconst_null();
        c.loadConstant(next);
        c.invokestatic(CD_JITNIF, "call" + e.arity, MethodTypeDesc.of(CD_int, CD_INTERP, shape, CD_INSTR, CD_RA, CD_int));
        c.goto_(done);
        c.labelBinding(slow);
        c.aload(MethodBody.IT); b.data.load(c, e, CD_EXPORT);
        c.loadConstant(in.a);
        if (in.op == CALL_EXT) b.retObj(pc); else c.aconst_null();
        c.loadConstant(next);
        c.invokevirtual(CD_INTERP, "callExport", MethodTypeDesc.of(CD_int, CD_EXPORT, CD_int, CD_RA, CD_int));
        c.labelBinding(done);
    }
}
