package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.CD_int;
import static org.jbeam.jit.JitCompiler.*;

import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;

import org.jbeam.code.Instr;

/**
 * Bytecode for operand access, mirroring {@code Interpreter.get/put}: x registers are the
 * interpreter's array (held in a local), y registers index down from the process's stack top,
 * constants come from the module's constant pool (a static final array of the compiled class).
 */
final class Emit {
    private final CodeBuilder c;
    private final org.jbeam.term.Term[] consts;
    private final ClassData data;

    Emit(CodeBuilder c, org.jbeam.term.Term[] consts, ClassData data) { this.c = c; this.consts = consts; this.data = data; }

    void loadX(int i) { c.aload(MethodBody.X); c.loadConstant(i); c.aaload(); }

    void storeX(int i, Runnable value) { c.aload(MethodBody.X); c.loadConstant(i); value.run(); c.aastore(); }

    /** stk[sp - 1 - i] */
    private void yAddress(int i) {
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "stk", CD_TERMS);
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "sp", CD_int);
        c.loadConstant(1 + i); c.isub();
    }

    void loadY(int i) { yAddress(i); c.aaload(); }

    void storeY(int i, Runnable value) { yAddress(i); value.run(); c.aastore(); }

    void loadK(int i) { data.load(c, consts[i], CD_TERM); }

    /** An encoded operand ({@code kind | index}). */
    void get(int op) {
        int i = op & Instr.INDEX_MASK;
        switch (op & Instr.KIND_MASK) {
            case Instr.X -> loadX(i);
            case Instr.Y -> loadY(i);
            case Instr.K -> loadK(i);
            default -> throw new IllegalArgumentException("operand kind " + (op >>> 24));
        }
    }

    void put(int op, Runnable value) {
        int i = op & Instr.INDEX_MASK;
        switch (op & Instr.KIND_MASK) {
            case Instr.X -> storeX(i, value);
            case Instr.Y -> storeY(i, value);
            default -> throw new IllegalArgumentException("destination kind " + (op >>> 24));
        }
    }

    /** it.sp += delta */
    void addSp(int delta) {
        if (delta == 0) return; // deallocate 0 / call_last ..., 0: the frame is the return address alone
        c.aload(MethodBody.IT); c.dup(); c.getfield(CD_INTERP, "sp", CD_int);
        c.loadConstant(delta); c.iadd();
        c.putfield(CD_INTERP, "sp", CD_int);
    }

    void support(String name, ClassDesc ret, ClassDesc... params) { call(CD_SUPPORT, name, ret, params); }

    /** A static method of the interpreter package (its own helpers, so compiled code cannot drift). */
    void call(ClassDesc owner, String name, ClassDesc ret, ClassDesc... params) {
        c.invokestatic(owner, name, MethodTypeDesc.of(ret, params));
    }
}
