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

    public static String name(int op) {
        return switch (op) {
            case CALL_NATIVE -> "call_native";
            case NORMAL_EXIT -> "normal_exit";
            case APPLY_TRAMPOLINE -> "apply_trampoline";
            default -> Opcodes.name(op);
        };
    }
}
