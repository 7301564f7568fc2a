package org.jbeam.bindings.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * jextract-style FFM bindings to the terminal calls of glibc 2.36 on Linux x86-64
 * ({@code termios.h}, {@code unistd.h} isatty, {@code sys/ioctl.h} TIOCGWINSZ): what erts' tty_sl
 * driver needs to put the terminal into character mode and to learn its size.
 * {@code struct termios} is 60 bytes: c_iflag, c_oflag, c_cflag, c_lflag (4 bytes each),
 * c_line (1), c_cc[32], then c_ispeed and c_ospeed (4 bytes each, 4-aligned).
 */
public final class Termios {
    private Termios() {}

    public static final long SIZE = 60;
    public static final long C_IFLAG = 0, C_OFLAG = 4, C_CFLAG = 8, C_LFLAG = 12, C_CC = 17;
    /** c_iflag bits. */
    public static final int BRKINT = 0000002, IGNPAR = 0000004, ISTRIP = 0000040, ICRNL = 0000400, IXON = 0002000, IXANY = 0004000;
    /** c_oflag bits. */
    public static final int OPOST = 0000001;
    /** c_lflag bits. */
    public static final int ISIG = 0000001, ICANON = 0000002, ECHO = 0000010, IEXTEN = 0100000;
    /** c_cc indexes. */
    public static final int VTIME = 5, VMIN = 6;
    public static final int TCSANOW = 0;
    private static final long TIOCGWINSZ = 0x5413;

    private static final Linker LINKER = Linker.nativeLinker();

    private static MethodHandle h(String name, FunctionDescriptor fd, Linker.Option... opts) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), fd, opts);
    }

    private static final class ISATTY { static final MethodHandle H = h("isatty", FunctionDescriptor.of(JAVA_INT, JAVA_INT)); }
    private static final class TCGETATTR { static final MethodHandle H = h("tcgetattr", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)); }
    private static final class TCSETATTR { static final MethodHandle H = h("tcsetattr", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS)); }
    private static final class IOCTL { static final MethodHandle H = h("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
            Linker.Option.firstVariadicArg(2)); }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    /** {@code isatty(fd)}. */
    public static boolean isatty(int fd) {
        try {
            return (int) ISATTY.H.invokeExact(fd) == 1;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code tcgetattr(fd, t)}: 0 or -1. */
    public static int tcgetattr(int fd, MemorySegment t) {
        try {
            return (int) TCGETATTR.H.invokeExact(fd, t);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code tcsetattr(fd, TCSANOW, t)}: 0 or -1. */
    public static int tcsetattr(int fd, MemorySegment t) {
        try {
            return (int) TCSETATTR.H.invokeExact(fd, TCSANOW, t);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** The terminal's {columns, rows}, or null when the size is not known. */
    public static int[] windowSize(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ws = a.allocate(8);
            if ((int) IOCTL.H.invokeExact(fd, TIOCGWINSZ, ws) != 0) return null;
            int rows = ws.get(JAVA_SHORT, 0) & 0xFFFF, cols = ws.get(JAVA_SHORT, 2) & 0xFFFF;
            return new int[] {cols, rows};
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    public static int flag(MemorySegment t, long field) { return t.get(JAVA_INT, field); }

    public static void setFlag(MemorySegment t, long field, int v) { t.set(JAVA_INT, field, v); }

    public static void setCc(MemorySegment t, int index, int v) { t.set(JAVA_BYTE, C_CC + index, (byte) v); }
}
