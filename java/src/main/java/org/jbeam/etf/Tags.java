package org.jbeam.etf;

/** Tag bytes of OTP's external term format (erts/emulator/beam/external.h). */
final class Tags {
    private Tags() {}

    static final int VERSION_MAGIC = 131;
    static final int COMPRESSED = 80;
    static final int NEW_FLOAT_EXT = 70;
    static final int BIT_BINARY_EXT = 77;
    static final int ATOM_CACHE_REF = 82;
    static final int NEW_PID_EXT = 88;
    static final int NEW_PORT_EXT = 89;
    static final int NEWER_REFERENCE_EXT = 90;
    static final int SMALL_INTEGER_EXT = 97;
    static final int INTEGER_EXT = 98;
    static final int FLOAT_EXT = 99;
    static final int ATOM_EXT = 100;
    static final int REFERENCE_EXT = 101;
    static final int PORT_EXT = 102;
    static final int PID_EXT = 103;
    static final int SMALL_TUPLE_EXT = 104;
    static final int LARGE_TUPLE_EXT = 105;
    static final int NIL_EXT = 106;
    static final int STRING_EXT = 107;
    static final int LIST_EXT = 108;
    static final int BINARY_EXT = 109;
    static final int SMALL_BIG_EXT = 110;
    static final int LARGE_BIG_EXT = 111;
    static final int NEW_FUN_EXT = 112;
    static final int EXPORT_EXT = 113;
    static final int NEW_REFERENCE_EXT = 114;
    static final int SMALL_ATOM_EXT = 115;
    static final int MAP_EXT = 116;
    static final int ATOM_UTF8_EXT = 118;
    static final int SMALL_ATOM_UTF8_EXT = 119;
    static final int V4_PORT_EXT = 120;

    /** Local node limits (OTP 25, 64-bit): pid number 15 bits, serial 13 bits, port 28 bits, first ref word 18 bits. */
    static final long MAX_LOCAL_PID_NUMBER = (1 << 15) - 1, MAX_LOCAL_PID_SERIAL = (1 << 13) - 1,
            MAX_LOCAL_PORT = (1L << 28) - 1, MAX_LOCAL_REF_W0 = (1 << 18) - 1;
    /** Port numbers above this are written as V4_PORT_EXT (OTP 25 enc_term). */
    static final long MAX_V3_PORT = (1L << 28) - 1;
    /** Local refs have this many 32-bit words. */
    static final int LOCAL_REF_WORDS = 3;
    /** Max id words of a reference in NEWER_REFERENCE_EXT. */
    static final int MAX_REF_WORDS = 5;
}
