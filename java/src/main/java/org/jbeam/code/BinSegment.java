package org.jbeam.code;

/**
 * One segment of a {@code bs_create_bin} instruction. {@code src}/{@code size} use the
 * {@link Instr} operand encoding; {@code size} is -1 for "no size given" (utf, or default).
 * {@code flags} are BEAM's field flags (2 = little, 4 = signed, 16 = native).
 */
public record BinSegment(int type, int unit, int flags, int src, int size, byte[] string) {
    public static final int INTEGER = 0, FLOAT = 1, BINARY = 2, UTF8 = 3, UTF16 = 4, UTF32 = 5, STRING = 6,
            APPEND = 7, PRIVATE_APPEND = 8;
    public static final int SIZE_NONE = -1, SIZE_ALL = -2;
    public static final int FLAG_LITTLE = 2, FLAG_SIGNED = 4, FLAG_NATIVE = 16;

    public static int typeOf(String atom) {
        return switch (atom) {
            case "integer" -> INTEGER;
            case "float" -> FLOAT;
            case "binary" -> BINARY;
            case "utf8" -> UTF8;
            case "utf16" -> UTF16;
            case "utf32" -> UTF32;
            case "string" -> STRING;
            case "append" -> APPEND;
            case "private_append" -> PRIVATE_APPEND;
            default -> -1;
        };
    }

    public boolean little() { return (flags & FLAG_LITTLE) != 0 || ((flags & FLAG_NATIVE) != 0 && java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN); }
    public boolean signed() { return (flags & FLAG_SIGNED) != 0; }
}
