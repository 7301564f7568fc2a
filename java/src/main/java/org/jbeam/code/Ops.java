package org.jbeam.code;

import org.jbeam.loader.Opcodes;

/** Internal opcodes added by the loader on top of the generic ones (numbers above 255). */
public final class Ops {
    private Ops() {}
    /** Body of a function implemented natively (BIF/NIF): call it with x0..x(arity-1), return. */
    public static final int CALL_NATIVE = 256;
    /** Bottom of every process stack: the process's initial function returned. */
    public static final int NORMAL_EXIT = 257;
    /** Continue an apply/call_fun through error_handler or after a trapping BIF (x regs set). */
    public static final int APPLY_TRAMPOLINE = 258;
    /** gc_bif2 of erlang:'+'/'-'/'*' and the comparisons, with an inline small-integer fast path. */
    public static final int ADD = 259, SUB = 260, MUL = 261;
    /** bif2 of erlang:'<' etc. as value-producing guards, and element/2 with an inline fast path. */
    public static final int ELEMENT = 262;

    /** The specialised opcode for a BIF instruction calling {@code erlang:name/arity}, or -1. */
    public static int specialise(String name, int arity) {
        if (arity == 2) {
            switch (name) {
                case "+": return ADD;
                case "-": return SUB;
                case "*": return MUL;
                case "element": return ELEMENT;
                default: return -1;
            }
        }
        return -1;
    }

    public static String name(int op) {
        return switch (op) {
            case CALL_NATIVE -> "call_native";
            case NORMAL_EXIT -> "normal_exit";
            case APPLY_TRAMPOLINE -> "apply_trampoline";
            case ADD -> "gc_bif2 +";
            case SUB -> "gc_bif2 -";
            case MUL -> "gc_bif2 *";
            case ELEMENT -> "bif2 element";
            default -> Opcodes.name(op);
        };
    }
}
