package org.jbeam.loader;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The generic instruction set, read from {@code genop.tab} (derived from OTP's genop.tab): number,
 * name, arity, and whether the instruction is obsolete (rejected with "recompile" as OTP does).
 */
public final class Opcodes {
    public static final int MAX_OPCODE;
    private static final String[] NAMES = new String[256];
    private static final int[] ARITY = new int[256];
    private static final boolean[] OBSOLETE = new boolean[256];

    static {
        int max = 0;
        try (var in = Opcodes.class.getResourceAsStream("genop.tab");
             var r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.trim().split("\\s+");
                int n = Integer.parseInt(f[0]);
                NAMES[n] = f[1];
                ARITY[n] = Integer.parseInt(f[2]);
                OBSOLETE[n] = f.length > 3 && f[3].equals("obsolete");
                if (!OBSOLETE[n]) max = Math.max(max, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        MAX_OPCODE = max;
    }

    private Opcodes() {}

    public static boolean known(int op) { return op > 0 && op < 256 && NAMES[op] != null; }
    public static boolean obsolete(int op) { return known(op) && OBSOLETE[op]; }
    public static String name(int op) { return known(op) ? NAMES[op] : "op" + op; }
    public static int arity(int op) { return ARITY[op]; }

    /** Opcode number by name, or -1. */
    public static int byName(String name) {
        for (int i = 0; i < NAMES.length; i++) if (name.equals(NAMES[i]) && !OBSOLETE[i]) return i;
        return -1;
    }

    // Opcode numbers used by the transformer (checked against the table at class init).
    public static final int LABEL = 1, FUNC_INFO = 2, INT_CODE_END = 3, CALL = 4, CALL_LAST = 5, CALL_ONLY = 6,
            CALL_EXT = 7, CALL_EXT_LAST = 8, BIF0 = 9, BIF1 = 10, BIF2 = 11, ALLOCATE = 12, ALLOCATE_HEAP = 13,
            ALLOCATE_ZERO = 14, ALLOCATE_HEAP_ZERO = 15, TEST_HEAP = 16, INIT = 17, DEALLOCATE = 18, RETURN = 19,
            SEND = 20, REMOVE_MESSAGE = 21, TIMEOUT = 22, LOOP_REC = 23, LOOP_REC_END = 24, WAIT = 25,
            WAIT_TIMEOUT = 26, IS_LT = 39, IS_GE = 40, IS_EQ = 41, IS_NE = 42, IS_EQ_EXACT = 43, IS_NE_EXACT = 44,
            IS_INTEGER = 45, IS_FLOAT = 46, IS_NUMBER = 47, IS_ATOM = 48, IS_PID = 49, IS_REFERENCE = 50,
            IS_PORT = 51, IS_NIL = 52, IS_BINARY = 53, IS_LIST = 55, IS_NONEMPTY_LIST = 56, IS_TUPLE = 57,
            TEST_ARITY = 58, SELECT_VAL = 59, SELECT_TUPLE_ARITY = 60, JUMP = 61, CATCH = 62, CATCH_END = 63,
            MOVE = 64, GET_LIST = 65, GET_TUPLE_ELEMENT = 66, SET_TUPLE_ELEMENT = 67, PUT_LIST = 69, BADMATCH = 72,
            IF_END = 73, CASE_END = 74, CALL_FUN = 75, IS_FUNCTION = 77, CALL_EXT_ONLY = 78,
            BS_PUT_INTEGER = 89, BS_PUT_BINARY = 90, BS_PUT_FLOAT = 91, BS_PUT_STRING = 92, FCLEARERROR = 94,
            FCHECKERROR = 95, FMOVE = 96, FCONV = 97, FADD = 98, FSUB = 99, FMUL = 100, FDIV = 101, FNEGATE = 102,
            MAKE_FUN2 = 103, TRY = 104, TRY_END = 105, TRY_CASE = 106, TRY_CASE_END = 107, RAISE = 108,
            BS_INIT2 = 109, BS_ADD = 111, APPLY = 112, APPLY_LAST = 113, IS_BOOLEAN = 114, IS_FUNCTION2 = 115,
            BS_GET_INTEGER2 = 117, BS_GET_FLOAT2 = 118, BS_GET_BINARY2 = 119, BS_SKIP_BITS2 = 120,
            BS_TEST_TAIL2 = 121, GC_BIF1 = 124, GC_BIF2 = 125, IS_BITSTR = 129, BS_TEST_UNIT = 131,
            BS_MATCH_STRING = 132, BS_INIT_WRITABLE = 133, BS_APPEND = 134, BS_PRIVATE_APPEND = 135, TRIM = 136,
            BS_INIT_BITS = 137, BS_GET_UTF8 = 138, BS_SKIP_UTF8 = 139, BS_GET_UTF16 = 140, BS_SKIP_UTF16 = 141,
            BS_GET_UTF32 = 142, BS_SKIP_UTF32 = 143, BS_UTF8_SIZE = 144, BS_PUT_UTF8 = 145, BS_UTF16_SIZE = 146,
            BS_PUT_UTF16 = 147, BS_PUT_UTF32 = 148, ON_LOAD = 149, RECV_MARK = 150, RECV_SET = 151, GC_BIF3 = 152,
            LINE = 153, PUT_MAP_ASSOC = 154, PUT_MAP_EXACT = 155, IS_MAP = 156, HAS_MAP_FIELDS = 157,
            GET_MAP_ELEMENTS = 158, IS_TAGGED_TUPLE = 159, BUILD_STACKTRACE = 160, RAW_RAISE = 161, GET_HD = 162,
            GET_TL = 163, PUT_TUPLE2 = 164, BS_GET_TAIL = 165, BS_START_MATCH3 = 166, BS_GET_POSITION = 167,
            BS_SET_POSITION = 168, SWAP = 169, BS_START_MATCH4 = 170, MAKE_FUN3 = 171, INIT_YREGS = 172,
            RECV_MARKER_BIND = 173, RECV_MARKER_CLEAR = 174, RECV_MARKER_RESERVE = 175, RECV_MARKER_USE = 176,
            BS_CREATE_BIN = 177, CALL_FUN2 = 178, NIF_START = 179, BADRECORD = 180;
}
