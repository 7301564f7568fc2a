package org.jbeam.code;

import org.jbeam.term.Term;

/**
 * One pre-decoded instruction. {@code op} is the generic opcode (see loader/genop.tab) or an
 * internal one ({@link Ops}); operands live in plain int fields so dispatch reads no arrays.
 *
 * <p>Operand encoding for sources/destinations: {@code kind << 24 | index} with kind
 * {@link #X}, {@link #Y} or {@link #K} (constant: index into the module's constant pool).
 * Labels are resolved to instruction indexes (0 = no fail label: raise instead).
 */
public final class Instr {
    public static final int X = 0, Y = 1 << 24, K = 2 << 24, FR = 3 << 24;
    public static final int KIND_MASK = 0xFF << 24, INDEX_MASK = 0xFFFFFF;

    public int op;
    public int a, b, c, d, e, f;
    /** Auxiliary data: Export, BIF entry, FunEntry, select table, operand lists… */
    public Object o;
    /** An auxiliary term (literal, atom). */
    public Term t;
    /** Return address for call instructions (precomputed: no allocation per call). */
    public ReturnAddr ret;
    /** Location index into the module's line table (0 = none). */
    public int line;
    /**
     * Interpreted executions of this local call, counted up to the bytecode tier's call threshold
     * and then left alone (so a hot call site stops writing a shared cache line). ADR 0008.
     */
    public int hits;

    public Instr(int op) { this.op = op; }

    public static boolean isX(int operand) { return (operand & KIND_MASK) == X; }
    public static boolean isY(int operand) { return (operand & KIND_MASK) == Y; }
    public static int index(int operand) { return operand & INDEX_MASK; }

    @Override public String toString() { return Ops.name(op) + " a=" + a + " b=" + b + " c=" + c + " d=" + d; }
}
