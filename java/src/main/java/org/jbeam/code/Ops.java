package org.jbeam.code;

import org.jbeam.loader.Opcodes;

/** Internal opcodes added by the loader on top of the generic ones (numbers above 255). */
public final class Ops {
    private Ops() {}
    /** Body of a function implemented natively (BIF/NIF): call it with x0..x(arity-1), return. */
    public static final int CALL_NATIVE = 256;
    /** {@code CALL_NATIVE.c}: the body is a NIF, which external callers run in place (Interpreter.callExport). */
    public static final int NATIVE_NIF = 1;
    /** Bottom of every process stack: the process's initial function returned. */
    public static final int NORMAL_EXIT = 257;
    /** Continue an apply/call_fun through error_handler or after a trapping BIF (x regs set). */
    public static final int APPLY_TRAMPOLINE = 258;
    /** gc_bif2 of erlang:'+'/'-'/'*' and the comparisons, with an inline small-integer fast path. */
    public static final int ADD = 259, SUB = 260, MUL = 261;
    /** bif2 of erlang:'<' etc. as value-producing guards, and element/2 with an inline fast path. */
    public static final int ELEMENT = 262;

    // Operand-kind specialisations chosen by the loader (see loader/Operands.specialiseKinds):
    // operands hold plain register indexes, constants are in Instr.t.
    /** move x->x, x->y, y->x, constant->x. */
    public static final int MOVE_XX = 263, MOVE_XY = 264, MOVE_YX = 265, MOVE_KX = 266;
    /** is_lt / is_ge of an x register and a constant (XK: x is the first operand, KX: the second). */
    public static final int IS_LT_XK = 267, IS_GE_XK = 268, IS_LT_KX = 269, IS_GE_KX = 270;
    /** is_eq_exact / is_ne_exact of an x register and an atom (identity). */
    public static final int IS_EQ_EXACT_XA = 271, IS_NE_EXACT_XA = 272;
    /** is_nonempty_list of an x register. */
    public static final int IS_NONEMPTY_LIST_X = 273;
    /** get_list from an x register into two x registers. */
    public static final int GET_LIST_XXX = 274;
    /** fmove fr->fr, fr->x/y (d encoded), term->fr (a encoded); operands that are fr hold plain indexes. */
    public static final int FMOVE_RR = 275, FMOVE_RT = 276, FMOVE_TR = 277;
    /** fadd/fsub/fmul/fdiv with float-register operands only (plain indexes). */
    public static final int FADD_R = 278, FSUB_R = 279, FMUL_R = 280, FDIV_R = 281;
    /** is_lt / is_ge of two x registers. */
    public static final int IS_LT_XX = 282, IS_GE_XX = 283;
    /** put_list of two x registers into an x register. */
    public static final int PUT_LIST_XXX = 284;
    /** get_tuple_element from an x register into an x register. */
    public static final int GET_TUPLE_ELEMENT_XX = 285;
    /** test_arity of an x register. */
    public static final int TEST_ARITY_X = 286;

    // Superinstructions: the first instruction of a common pair also does the second and skips
    // it (the second stays in place, so jumps to it still work). See loader/Operands.fuse.
    /** is_nonempty_list x + get_list of that x into x registers (b, c taken from the get_list). */
    public static final int IS_NONEMPTY_LIST_GET = 287;
    /** deallocate + return. */
    public static final int DEALLOCATE_RETURN = 288;
    /** is_tuple x + test_arity of the same x with the same fail label (arity in b). */
    public static final int IS_TUPLE_ARITY = 289;
    /** gc_bif2/bif2 of erlang:band/bor/bxor/bsr with an inline small-integer fast path. */
    public static final int BAND = 290, BOR = 291, BXOR = 292, BSR = 293;
    /** is_eq_exact / is_ne_exact of an x register and an int-sized small integer (value in f). */
    public static final int IS_EQ_EXACT_XI = 294, IS_NE_EXACT_XI = 295;
    /** gc_bif2 of erlang:rem/div/bsl with an inline small-integer fast path. */
    public static final int REM = 296, IDIV = 297, BSL = 298;
    /** move x->y + move x->x, move x->x + move x->x (second move's source in b, destination in c). */
    public static final int MOVE_XY_XX = 299, MOVE_XX_XX = 300;
    /** move x->y + move x->x + call (call's live count in f, target in e, return address in ret). */
    public static final int MOVE_XY_XX_CALL = 301;
    /** Park until the process's pending async native call completes, then return its result. */
    public static final int AWAIT_ASYNC = 302;
    /** Enter the bytecode-compiled version of the function at this pc (o = CompiledFunction). */
    public static final int JIT_ENTER = 303;
    /** Where a traced call with {return_trace} returns to: send return_from, then return on (interp.CallTracing). */
    public static final int RETURN_TRACE = 304;
    /** A locally traced function's local calls land here (o = FuncInfo, e = its entry): trace, then enter. */
    public static final int TRACE_ENTRY = 305;
    /** Where a call_time-traced call returns to: charge the callee's time, restore the caller's clock (interp.CallTracing). */
    public static final int RETURN_TIME = 320;
    /** Where a call traced with the return_to flag returns to: send return_to with the caller, then return on (interp.CallTracing). */
    public static final int RETURN_TO = 321;

    /** The specialised opcode for a BIF instruction calling {@code erlang:name/arity}, or -1. */
    public static int specialise(String name, int arity) {
        if (arity == 2) {
            switch (name) {
                case "+": return ADD;
                case "-": return SUB;
                case "*": return MUL;
                case "element": return ELEMENT;
                case "band": return BAND;
                case "bor": return BOR;
                case "bxor": return BXOR;
                case "bsr": return BSR;
                case "rem": return REM;
                case "div": return IDIV;
                case "bsl": return BSL;
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
            case AWAIT_ASYNC -> "await_async";
            case RETURN_TRACE -> "return_trace";
            case TRACE_ENTRY -> "trace_entry";
            case RETURN_TIME -> "return_time_trace";
            case RETURN_TO -> "return_to_trace";
            case JIT_ENTER -> "jit_enter";
            case ADD -> "gc_bif2 +";
            case SUB -> "gc_bif2 -";
            case MUL -> "gc_bif2 *";
            case ELEMENT -> "bif2 element";
            case MOVE_XX, MOVE_XY, MOVE_YX, MOVE_KX -> "move";
            case IS_LT_XK, IS_LT_KX -> "is_lt";
            case IS_GE_XK, IS_GE_KX -> "is_ge";
            case IS_EQ_EXACT_XA, IS_EQ_EXACT_XI -> "is_eq_exact";
            case IS_NE_EXACT_XA, IS_NE_EXACT_XI -> "is_ne_exact";
            case IS_NONEMPTY_LIST_X -> "is_nonempty_list";
            case GET_LIST_XXX -> "get_list";
            case FMOVE_RR, FMOVE_RT, FMOVE_TR -> "fmove";
            case IS_NONEMPTY_LIST_GET -> "is_nonempty_list+get_list";
            case DEALLOCATE_RETURN -> "deallocate+return";
            case IS_TUPLE_ARITY -> "is_tuple+test_arity";
            case BAND -> "gc_bif2 band";
            case BOR -> "gc_bif2 bor";
            case BXOR -> "gc_bif2 bxor";
            case BSR -> "gc_bif2 bsr";
            case MOVE_XY_XX, MOVE_XX_XX -> "move+move";
            case MOVE_XY_XX_CALL -> "move+move+call";
            case REM -> "gc_bif2 rem";
            case IDIV -> "gc_bif2 div";
            case BSL -> "gc_bif2 bsl";
            case IS_LT_XX -> "is_lt";
            case IS_GE_XX -> "is_ge";
            case PUT_LIST_XXX -> "put_list";
            case GET_TUPLE_ELEMENT_XX -> "get_tuple_element";
            case TEST_ARITY_X -> "test_arity";
            case FADD_R -> "fadd";
            case FSUB_R -> "fsub";
            case FMUL_R -> "fmul";
            case FDIV_R -> "fdiv";
            default -> Opcodes.name(op);
        };
    }
}
